import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv } from 'ajv';
import { openApiDocument } from '../../../api/openapi/document.js';
import { OPERATION_IDS, withOperationIds } from '../../../api/openapi/operation-ids.js';
import { withConditionalProperties } from '../../../api/openapi/conditional-required.js';
import { healthCheckSchema } from '../../../state/schema/program-schema.js';

type Paths = Record<string, Record<string, { operationId?: string; tags?: string[]; responses: Record<string, unknown> }>>;

test('every operation has its own operationId, a tag, and a 4xx answer (what redocly lint checks, as a unit test)', () => {
  const doc = openApiDocument('test') as { paths: Paths; tags: { name: string; description?: string }[] };
  const ids: string[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      assert.ok(op.operationId, `${method} ${path}`);
      ids.push(op.operationId);
      assert.ok(op.tags?.length, `${method} ${path} has a tag`);
      assert.ok(Object.keys(op.responses).some((code) => code.startsWith('4')), `${method} ${path} has a 4xx response`);
    }
  }
  assert.equal(new Set(ids).size, ids.length, 'operationIds are unique');
  assert.equal(new Set(Object.values(OPERATION_IDS)).size, Object.values(OPERATION_IDS).length);
  assert.ok(doc.tags.every((t) => t.description), 'every tag is described');
  assert.ok(ids.includes('reloadProgram'));
});

test('a route without an operationId cannot enter the document', () => {
  assert.throws(() => withOperationIds({ '/api/v1/new-thing': { get: {} } }), /no operationId for GET \/api\/v1\/new-thing/);
});

test('the conditional-required rewrite accepts and rejects exactly what the schema does', () => {
  const ajv = new Ajv({ strict: false });
  const original = ajv.compile(healthCheckSchema as object);
  const rewritten = ajv.compile(withConditionalProperties(healthCheckSchema) as object);
  const samples = [
    { type: 'http', url: 'http://127.0.0.1/' },
    { type: 'http' },
    { type: 'tcp', port: 80 },
    { type: 'tcp', url: 'http://x/' },
    { type: 'exec', command: 'true' },
    { type: 'exec' },
    { type: 'tcp', port: 'eighty' },
  ];
  for (const s of samples) assert.equal(rewritten(s), original(s), JSON.stringify(s));
  const branch = (withConditionalProperties(healthCheckSchema) as { allOf: { then: { properties: object } }[] }).allOf[0];
  assert.deepEqual(Object.keys(branch.then.properties), ['url']);
});
