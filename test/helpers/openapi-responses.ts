import { Ajv, type ValidateFunction } from 'ajv';
import { openApiDocument } from '../../api/openapi/document.js';

type Json = Record<string, unknown>;

/**
 * Checks real responses against the OpenAPI document: the route, method and status must be
 * documented, and a JSON body must match the documented schema (ajv; formats are not checked).
 */
export function responseChecker(version = 'test') {
  const doc = openApiDocument(version) as { paths: Record<string, Record<string, Json>>; components: Json };
  const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
  const compiled = new Map<string, ValidateFunction>();
  const seen = new Set<string>();
  return {
    check(method: string, template: string, status: number, body: unknown): void {
      const op = doc.paths[template]?.[method.toLowerCase()] as { responses?: Record<string, { content?: Record<string, { schema?: Json }> }> } | undefined;
      if (!op) throw new Error(`${method} ${template}: not in the OpenAPI document`);
      const response = op.responses?.[String(status)];
      if (!response) throw new Error(`${method} ${template}: status ${status} is not documented (documented: ${Object.keys(op.responses ?? {}).join(', ')})`);
      seen.add(`${method.toUpperCase()} ${template}`);
      const schema = response.content?.['application/json']?.schema;
      if (!schema) return;
      const key = `${method} ${template} ${status}`;
      let validate = compiled.get(key);
      if (!validate) {
        // The components travel with the schema so its `#/components/...` references resolve.
        validate = ajv.compile({ allOf: [schema], components: doc.components });
        compiled.set(key, validate);
      }
      if (!validate(body)) throw new Error(`${key}: the response does not match the document: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`);
    },
    /** Routes (`METHOD /template`) checked so far. */
    seen: () => [...seen].sort(),
  };
}
