// Generates the program validators as plain JavaScript at build time (part of `npm run build`,
// after tsc): ajv's "standalone" code for the create and update schemas, written next to the
// compiled schema as dist/state/schema/program-validators.cjs. svcd then validates without
// loading ajv's compiler or compiling at start-up (state/schema/validate.ts; several MiB of its
// memory). The file carries a digest of the schemas it was made from: validate.ts falls back to
// compiling with ajv when the digest does not match the schemas it was built with.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const dir = join('dist', 'state', 'schema');
const { AJV_OPTIONS, schemaDigest } = await import(pathToFileURL(join(dir, 'validator-options.js')).href);
const { programCreateSchema, programUpdateSchema } = await import(pathToFileURL(join(dir, 'program-schema.js')).href);
const { Ajv } = await import('ajv');
const standaloneCode = (await import('ajv/dist/standalone/index.js')).default.default;

const ajv = new Ajv({ ...AJV_OPTIONS, code: { source: true, esm: false } });
ajv.addSchema(programCreateSchema, 'create');
ajv.addSchema(programUpdateSchema, 'update');
const code = standaloneCode(ajv, { create: 'create', update: 'update' });
const digest = schemaDigest(programCreateSchema, programUpdateSchema);
writeFileSync(join(dir, 'program-validators.cjs'), `${code}\nexports.digest = ${JSON.stringify(digest)};\n`);
console.log(`build-validators: ${join(dir, 'program-validators.cjs')} (${digest.slice(0, 12)})`);
