type Json = Record<string, unknown>;

const body = (schema: Json, description = 'OK') => ({ description, content: { 'application/json': { schema } } });
const error = (description: string) => body({ $ref: '#/components/schemas/Error' }, description);
const nullable = (type: string) => ({ type: [type, 'null'] });
const counts = (keys: string[]) => ({ type: 'object', properties: Object.fromEntries(keys.map((k) => [k, { type: 'integer' }])) });

/** One run (state/reactions-view.ts RunRecord). */
const run: Json = {
  type: 'object',
  properties: {
    event_id: { type: 'string' },
    event: { type: 'string' },
    program_name: nullable('string'),
    started_at: { type: 'integer', description: 'Unix ms' },
    finished_at: nullable('integer'),
    outcome: { enum: ['running', 'ok', 'failed', 'timeout', 'spawn_failed'] },
    exit_code: nullable('integer'),
    signal: nullable('integer'),
    duration_secs: nullable('number'),
    msg: { type: 'string' },
    test: { type: 'boolean' },
  },
};

const reaction: Json = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    enabled: { type: 'boolean' },
    events: { type: 'array', items: { type: 'string' } },
    programs: { type: ['array', 'null'], items: { type: 'string' } },
    command: { type: 'array', items: { type: 'string' } },
    shell: { type: 'boolean' },
    cwd: { type: 'string' },
    timeout_secs: { type: 'integer' },
    max_concurrent: { type: 'integer' },
    cooldown_secs: { type: 'integer' },
    env_names: { type: 'array', items: { type: 'string' } },
    log_file: { type: 'string' },
    running: { type: 'integer' },
    runs: counts(['ok', 'failed', 'timeout', 'spawn_failed']),
    skipped: counts(['disabled', 'cooldown', 'concurrency']),
    last_run: { oneOf: [run, { type: 'null' }] },
  },
};

const status: Json = {
  type: 'object',
  properties: {
    file: { type: 'string' },
    watching: { type: 'boolean' },
    loaded_at: nullable('integer'),
    load_error: { oneOf: [{ type: 'object', properties: { at: { type: 'integer' }, errors: { type: 'array', items: { type: 'string' } } } }, { type: 'null' }] },
    reactions: { type: 'array', items: reaction },
  },
};

/** Event reaction routes of the OpenAPI document (docs/reactions.md). */
export const reactionPaths: Json = {
  '/api/v1/system/reactions': {
    get: {
      summary: 'Event reactions in force (conf/reactions.toml), each with its last run, and the error of the last edit if it failed',
      tags: ['system'],
      responses: { 200: body(status), 401: error('Authentication required') },
    },
  },
  '/api/v1/system/reactions/{name}/test': {
    post: {
      summary: 'Run a reaction now with a synthetic event; answers when the run has ended (at most its timeout_secs)',
      tags: ['system'],
      parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string' } }],
      requestBody: {
        required: false,
        content: { 'application/json': { schema: { type: 'object', additionalProperties: false, properties: { event: { type: 'string' }, program: { type: 'string', description: 'Program name or id' } } } } },
      },
      responses: {
        200: body(run),
        400: error('Invalid body, event type or program'),
        401: error('Authentication required'),
        403: error('Operators and admins only (security plugin)'),
        404: error('No such reaction'),
        409: error('max_concurrent runs of it are in flight'),
      },
    },
  },
};
