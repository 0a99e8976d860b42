import { MAX_LIMIT, DEFAULT_LIMIT, SORT_KEYS } from '../../state/events/query-types.js';
import { PLAN_ID_PATTERN } from '../../stacks/plan-id.js';
import { MAX_WAIT_SECS } from '../../state/readiness.js';
import { EVENT_TYPES } from '../../state/events/types.js';

type Json = Record<string, unknown>;

const errorBody = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });
const ok = (schema: Json) => ({ 200: { description: 'OK', content: { 'application/json': { schema } } }, 401: errorBody('Authentication required (auth_secret is set)') });
const uuid = { type: 'string', format: 'uuid' };

const eventFilters: Json[] = [
  { name: 'from', in: 'query', schema: { type: 'integer', minimum: 0 }, description: 'Inclusive lower bound on ts (Unix seconds)' },
  { name: 'to', in: 'query', schema: { type: 'integer', minimum: 0 }, description: 'Inclusive upper bound on ts (Unix seconds)' },
  { name: 'event_type', in: 'query', schema: { enum: [...EVENT_TYPES] } },
  { name: 'exit_code', in: 'query', schema: { type: 'integer' } },
  { name: 'q', in: 'query', schema: { type: 'string' }, description: 'Case-insensitive substring of msg' },
  { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT } },
  { name: 'offset', in: 'query', description: 'Rows to skip; at most 100000 unless sort_by is time', schema: { type: 'integer', minimum: 0, default: 0 } },
  { name: 'sort_by', in: 'query', schema: { enum: [...SORT_KEYS], default: 'time' } },
  { name: 'order', in: 'query', schema: { enum: ['asc', 'desc'], default: 'asc' } },
];

const eventList = { type: 'array', items: { $ref: '#/components/schemas/EventRecord' } };
const gitSource = { type: 'object', description: 'A git source: applied commit, pin, head, last fetch, last error (docs/gitops.md)', properties: { name: { type: 'string' }, last_error: { type: ['object', 'null'] } } };
const stackBody = { type: 'object', properties: { prune: { type: 'boolean' }, services: { type: 'array', items: { $ref: '#/components/schemas/ProgramCreate' } } } };

const waitedProgram = (extra: Json) => ({ type: 'object', required: ['id', 'name', 'status'], properties: { id: uuid, name: { type: 'string' }, status: { type: 'string' }, ...extra } });
/** `wait` of a stack apply with ?wait= (state/readiness.ts, waitJson). */
const waitResult = {
  type: 'object',
  description: 'With ?wait=: how the wait for the stack\'s programs ended',
  required: ['ok', 'timed_out', 'secs', 'ready', 'failed', 'pending', 'skipped'],
  properties: {
    ok: { type: 'boolean', description: 'every program waited for is ready' },
    timed_out: { type: 'boolean' },
    secs: { type: 'number' },
    ready: { type: 'array', items: waitedProgram({ how: { type: 'string' }, secs: { type: 'number' } }) },
    failed: { type: 'array', items: waitedProgram({ warning: { type: 'string' }, stderr: { type: 'array', items: { type: 'string' } } }) },
    pending: { type: 'array', items: waitedProgram({}) },
    skipped: { type: 'array', items: waitedProgram({}) },
  },
};

/** Event history and stack routes (api/routes/events.ts, stack.ts); auth routes are in security-paths.ts. */
export const morePaths: Json = {
  '/api/v1/programs/{id}/events': {
    get: {
      summary: 'Event history of one program (filters combine)',
      tags: ['events'],
      parameters: [{ name: 'id', in: 'path', required: true, schema: uuid }, { name: 'program_id', in: 'query', schema: uuid, description: 'Must name the program of the path, if given' }, ...eventFilters],
      responses: { ...ok(eventList), 400: errorBody('Invalid query'), 404: errorBody('Unknown program') },
    },
  },
  '/api/v1/events': {
    get: {
      summary: 'Event history of the daemon (filters combine)',
      tags: ['events'],
      parameters: [{ name: 'program_id', in: 'query', schema: uuid }, ...eventFilters],
      responses: { ...ok(eventList), 400: errorBody('Invalid query') },
    },
  },
  '/api/v1/events/stats': {
    get: { summary: 'Event statistics', tags: ['events'], parameters: [{ name: 'program_id', in: 'query', schema: uuid }], responses: { ...ok({ type: 'object' }), 400: errorBody('Invalid query') } },
  },
  '/api/v1/stack': {
    get: { summary: 'The stored desired state as a stack that re-applies to no change', tags: ['stacks'], responses: ok(stackBody) },
    put: {
      summary: 'Apply a stack (JSON, TOML or YAML by Content-Type)',
      tags: ['stacks'],
      parameters: [
        { name: 'source', in: 'query', schema: { type: 'string', maxLength: 128 }, description: 'Source label (default stack:api)' },
        { name: 'prune', in: 'query', schema: { type: 'boolean' }, description: 'Overrides the stack\'s own prune when given: true prunes, false never prunes' },
        { name: 'dry_run', in: 'query', schema: { type: 'boolean' } },
        {
          name: 'plan',
          in: 'query',
          schema: { type: 'string', pattern: PLAN_ID_PATTERN.source },
          description: 'The plan id a dry run answered: the apply goes ahead only if its plan is still that one (409 and nothing changed otherwise)',
        },
        {
          name: 'include',
          in: 'query',
          schema: { type: 'array', items: { type: 'string', minLength: 1, maxLength: 4096 }, maxItems: 1000 },
          style: 'form',
          explode: true,
          description: 'A file the stack includes (repeatable; svc apply sends them): programs with source include:FILE are its own for prune, even when the file lists none now',
        },
        {
          name: 'wait',
          in: 'query',
          schema: { type: 'integer', minimum: 1, maximum: MAX_WAIT_SECS },
          description:
            'Seconds to wait, after the apply, until each program of the stack is ready (Healthy with a health check, else Running for wait_stable seconds; Scheduled for cron; an expected exit for a one-shot); a Fatal program ends the wait at once. The answer is 200 either way, with `wait.ok` (not with dry_run)',
        },
        { name: 'wait_stable', in: 'query', schema: { type: 'integer', minimum: 0, maximum: MAX_WAIT_SECS }, description: 'With wait: seconds a program without a health check must have run (default 1)' },
      ],
      requestBody: {
        required: true,
        content: { 'application/json': { schema: stackBody }, 'application/toml': { schema: { type: 'string' } }, 'application/yaml': { schema: { type: 'string' } } },
      },
      responses: {
        ...ok({
          type: 'object',
          properties: {
            status: { const: 'ok' },
            dry_run: { type: 'boolean' },
            source: { type: 'string' },
            lines: { type: 'array', items: { type: 'string' } },
            plan: { type: 'string', pattern: PLAN_ID_PATTERN.source },
            wait: waitResult,
          },
        }),
        400: errorBody('Invalid stack (nothing changed)'),
        409: errorBody('The plan is no longer the one given in ?plan= (nothing changed)'),
        413: errorBody('Body too large, or too large to parse'),
        415: errorBody('Unsupported Content-Type'),
        503: errorBody('Too many large stacks being parsed; retry'),
      },
    },
  },
  '/api/v1/stack/status': {
    get: {
      summary: 'The watched stacks directory and the git sources (docs/gitops.md)',
      tags: ['stacks'],
      responses: ok({ type: 'object', properties: { dir: { type: 'string' }, watching: { type: 'boolean' }, files: { type: 'array', items: { type: 'object' } }, git: { type: 'array', items: gitSource } } }),
    },
  },
  '/api/v1/stack/sync': {
    post: {
      summary: 'Fetch and apply the git sources now (all, or ?source=NAME); ?to=COMMIT pins, ?unpin=true unpins',
      tags: ['stacks'],
      parameters: [
        { name: 'source', in: 'query', schema: { type: 'string' } },
        { name: 'to', in: 'query', schema: { type: 'string' }, description: 'Commit to pin the source to' },
        { name: 'unpin', in: 'query', schema: { type: 'boolean', default: false } },
      ],
      responses: { ...ok({ type: 'object', properties: { status: { enum: ['ok', 'error'] }, sources: { type: 'array', items: gitSource } } }), 400: errorBody('Bad parameter'), 404: errorBody('No git sources, or no such source') },
    },
  },
  '/api/v1/stack/diff': {
    get: {
      summary: 'Live state against the repository, per git source',
      tags: ['stacks'],
      parameters: [{ name: 'source', in: 'query', schema: { type: 'string' } }],
      responses: {
        ...ok({ type: 'object', properties: { sources: { type: 'array', items: { type: 'object', properties: { source: { type: 'string' }, commit: { type: ['string', 'null'] }, applied: { type: ['string', 'null'] }, in_sync: { type: 'boolean' }, changes: { type: 'array', items: { type: 'object' } }, error: { type: ['string', 'null'] } } } } } }),
        400: errorBody('Bad parameter'),
        404: errorBody('No git sources, or no such source'),
      },
    },
  },
};

export const eventRecordSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    ts: { type: 'integer' },
    ts_ms: { type: 'integer' },
    program_id: { type: ['string', 'null'] },
    program_name: { type: ['string', 'null'] },
    event: { enum: [...EVENT_TYPES] },
    exit_code: { type: ['integer', 'null'] },
    signal: { type: ['integer', 'null'] },
    retry_count: { type: ['integer', 'null'] },
    duration_secs: { type: ['number', 'null'] },
    msg: { type: 'string' },
  },
};
