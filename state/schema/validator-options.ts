import { createHash } from 'node:crypto';

/** ajv's options for the program schemas: the same at build time (scripts/build-validators.mjs) and run time. */
export const AJV_OPTIONS = { allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true } as const;

/** Identifies the schemas a generated validator was made from (a stale build is not used). */
export function schemaDigest(...schemas: unknown[]): string {
  return createHash('sha256').update(JSON.stringify({ options: AJV_OPTIONS, schemas })).digest('hex');
}
