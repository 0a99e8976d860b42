/**
 * OpenAPI paths of the notify plugin (docs/notify.md). They exist only when notify.so is loaded
 * (404 otherwise); GET needs read, PUT and test need notify.manage (api/route-table.ts).
 */
type Json = Record<string, unknown>;

const err = { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
const ok = (schema: Json) => ({ description: 'OK', content: { 'application/json': { schema } } });
const route = (summary: string, responses: Json, extra: Json = {}) => ({ summary, tags: ['notify'], ...extra, responses: { ...responses, 400: err, 401: err, 403: err, 404: err } });
const channel = {
  type: 'object',
  required: ['name', 'kind', 'url'],
  properties: {
    name: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$' },
    kind: { enum: ['slack', 'discord', 'teams', 'custom'] },
    url: { type: 'string', description: 'Webhook URL; redacted below admin' },
    events: { type: 'array', items: { type: 'string' } },
    programs: { type: 'array', items: { type: 'string' }, description: 'Names or globs' },
    min_severity: { enum: ['info', 'warning', 'critical'] },
    enabled: { type: 'boolean' },
    headers: { type: 'object', additionalProperties: { type: 'string' } },
    rate_per_minute: { type: 'number' },
    burst: { type: 'integer' },
    group_window_secs: { type: 'integer' },
    inhibit_backoff_after_fatal: { type: 'boolean' },
    inhibit_exits_on_shutdown: { type: 'boolean' },
  },
};
const config = { type: 'object', properties: { suppression: { type: 'object' }, delivery: { type: 'object' }, channels: { type: 'array', items: channel } } };
const view = { type: 'object', properties: { file: { type: 'string' }, host: { type: 'string' }, loaded_at: { type: 'integer' }, error: { type: ['object', 'null'] }, suppression: { type: 'object' }, delivery: { type: 'object' }, queue: { type: 'object' }, channels: { type: 'array', items: channel } } };

export function notifyPaths(): Json {
  return {
    '/api/v1/system/notify': {
      get: route('Webhook channels in force, the last load error, queue and counters (notify plugin)', { 200: ok(view) }),
      put: route('Replace the webhook channels: checked, written to conf/notify.toml, reloaded (notify plugin)', { 200: ok(view) }, {
        requestBody: { required: true, content: { 'application/json': { schema: config }, 'application/toml': { schema: { type: 'string' } } } },
      }),
    },
    '/api/v1/system/notify/test': {
      post: route('Send a test message to one channel and return the delivery result (notify plugin)', {
        200: ok({ type: 'object', properties: { channel: { type: 'string' }, ok: { type: 'boolean' }, status: { type: ['integer', 'null'] }, attempts: { type: 'integer' }, error: { type: ['string', 'null'] }, duration_ms: { type: 'integer' } } }),
      }, { requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['channel'], properties: { channel: { type: 'string' } } } } } } }),
    },
  };
}
