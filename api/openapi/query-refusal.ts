type Json = Record<string, unknown>;

const REFUSAL = { description: 'Unknown query parameter (named in the message)', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };

/**
 * Every /api/v1 operation refuses a query parameter it does not read (api/query-check.ts), so
 * each one can answer 400: operations whose own 400 says more keep it.
 */
export function withQueryRefusals(paths: Record<string, Json>): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [path, item] of Object.entries(paths)) {
    if (!path.startsWith('/api/v1/')) {
      out[path] = item;
      continue;
    }
    out[path] = Object.fromEntries(
      Object.entries(item).map(([method, operation]) => {
        const responses = (operation as { responses?: Json }).responses;
        if (!responses || '400' in responses) return [method, operation];
        return [method, { ...(operation as Json), responses: { ...responses, 400: REFUSAL } }];
      }),
    );
  }
  return out;
}
