import { programCreateSchema, programUpdateSchema } from '../../state/schema/program-schema.js';
import { SIGNALS as SIGNAL_NAMES } from '../../state/signals.js';
import { PROGRAM_STATUSES } from '../../state/status.js';
import { storageSchema } from './storage-schema.js';
import { securityPaths } from './security-paths.js';
import { notifyPaths } from './notify-paths.js';
import { otaPaths, otaViewSchema } from './ota-paths.js';
import { eventRecordSchema, morePaths } from './more-paths.js';
import { reactionPaths } from './reaction-paths.js';
import { BATCH_ACTIONS } from '../../operations/batch.js';
import { reloadSchemas } from './reload-schemas.js';
import { withOperationIds } from './operation-ids.js';
import { withConditionalProperties } from './conditional-required.js';
import { withQueryRefusals } from './query-refusal.js';

const SIGNALS = Object.keys(SIGNAL_NAMES);

type Json = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Json, description = 'OK') => ({ description, content: { 'application/json': { schema } } });
const error = (description: string) => json(ref('Error'), description);
const idParam = { name: 'id', in: 'path', required: true, description: 'Program UUID (never the name)', schema: { type: 'string', format: 'uuid' } };
const withoutId = ({ $id: _id, ...schema }: Json): Json => schema;

/** A route answering with a JSON body, plus the errors every route can give. */
function op(summary: string, tag: string, ok: Json, extra: Json = {}, errors: Record<string, string> = {}): Json {
  if (extra.requestBody) errors = { 413: 'Body too large', 415: 'Content-Type is not JSON', ...errors };
  return {
    summary,
    tags: [tag],
    ...extra,
    responses: { ...ok, 401: error('Authentication required (auth_secret or the security plugin)'), 403: error('The role lacks the permission (security plugin)'), ...Object.fromEntries(Object.entries(errors).map(([code, d]) => [code, error(d)])) },
  };
}

/** What a write answers when the change cannot be made durable (docs/operations.md, "A full data disk"). */
const NOT_WRITTEN = { 507: 'No space left on the data disk: nothing was changed', 503: 'The state store cannot write: nothing was changed' };

const action = (verb: string, extra: Json = {}) =>
  op(`${verb} a program`, 'programs', { 200: json(ref('ActionOutcome')) }, { parameters: [idParam, ...((extra.parameters as Json[] | undefined) ?? [])] }, { 404: 'Unknown program', ...(verb === 'Stop' ? {} : NOT_WRITTEN) });

const TAGS = [
  { name: 'health', description: 'Liveness, this document and the pages svcd serves (dashboard, API docs)' },
  { name: 'programs', description: 'Programs: configuration, actions (start, stop, restart, reload, signal), logs, OTA' },
  { name: 'events', description: 'The event history (docs/events.md)' },
  { name: 'stacks', description: 'Stacks: apply, export, diff, the watched directory and git sources (docs/stacks.md, docs/gitops.md)' },
  { name: 'system', description: 'The daemon: host stats, storage health, plugins, license, reactions, shutdown' },
  { name: 'observability', description: 'Metrics, the log stream (WebSocket) and the watch stream (Server-Sent Events)' },
  { name: 'auth', description: 'Login, access tokens and the audit log (security plugin; docs/security.md)' },
  { name: 'notify', description: 'Webhook notifications (notify plugin; docs/notify.md)' },
];

/**
 * The OpenAPI 3.1 document of the API, built from the same JSON Schemas the server validates
 * request bodies with (programCreateSchema, programUpdateSchema): the document cannot drift
 * from validation. Response shapes are described as served by the routes.
 */
export function openApiDocument(version: string): Json {
  return {
    openapi: '3.1.0',
    info: { title: 'svc API', version, description: 'svcd, a declarative process manager. Paths are relative to the daemon address.', license: { name: 'MIT', identifier: 'MIT' } },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    tags: TAGS,
    paths: withQueryRefusals(withOperationIds({
      '/health': { get: { ...op('Liveness', 'health', { 200: json(ref('Health')) }), security: [] } },
      '/api/v1/programs': {
        get: op('List programs', 'programs', { 200: json({ type: 'array', items: ref('ProgramSummary') }) }),
        post: op(
          'Create one program, or several from an array',
          'programs',
          { 201: json({ type: 'object', properties: { id: { type: 'string', format: 'uuid' }, ids: { type: 'array', items: { type: 'string', format: 'uuid' } } }, required: ['ids'] }, 'Created') },
          { requestBody: { required: true, content: { 'application/json': { schema: { oneOf: [ref('ProgramCreate'), { type: 'array', items: ref('ProgramCreate'), minItems: 1 }] } } } } },
          { 400: 'Invalid configuration', 409: 'Duplicate name', 413: 'Body too large', ...NOT_WRITTEN },
        ),
      },
      '/api/v1/programs/batch': {
        post: op('Run one action on many programs', 'programs', { 200: json(ref('BatchResult')) }, { requestBody: { required: true, content: { 'application/json': { schema: ref('Batch') } } } }, { 400: 'Invalid batch body', ...NOT_WRITTEN }),
      },
      '/api/v1/programs/{id}': {
        get: op('Configuration and state of a program', 'programs', { 200: json(ref('ProgramDetail')) }, { parameters: [idParam] }, { 404: 'Unknown program' }),
        put: op(
          'Update a program; only present fields change, null removes an optional field',
          'programs',
          { 200: json(ref('ProgramDetail')) },
          { parameters: [idParam], requestBody: { required: true, content: { 'application/json': { schema: ref('ProgramUpdate') } } } },
          { 400: 'Invalid configuration or unknown id', 409: 'Duplicate name', ...NOT_WRITTEN },
        ),
        delete: action('Stop and remove', { parameters: [{ name: 'force', in: 'query', schema: { type: 'boolean', default: false }, description: 'SIGKILL at once instead of SIGTERM and stopsecs' }] }),
      },
      '/api/v1/programs/{id}/start': { post: action('Start') },
      '/api/v1/programs/{id}/stop': { post: action('Stop', { parameters: [{ name: 'force', in: 'query', schema: { type: 'boolean', default: false }, description: 'SIGKILL at once' }] }) },
      '/api/v1/programs/{id}/restart': { post: action('Restart') },
      '/api/v1/programs/{id}/reload': {
        post: {
          ...action('Reload'),
          description:
            'With an enabled health check: starts a new process beside the running one, waits until it is Healthy, then stops the old one (SIGTERM, SIGKILL after stopsecs). ' +
            'The program must be able to run twice at once, e.g. share its port with SO_REUSEPORT (docs/reload.md). If the new process does not become Healthy in time, it is stopped, ' +
            'the old one keeps running, and the answer has ok false with the reason in error. Without a health check: a plain restart, and note says so.',
        },
      },
      '/api/v1/programs/{id}/signal': {
        post: op(
          'Send a signal to a running program (its process group)',
          'programs',
          { 200: json(ref('ActionOutcome')) },
          { parameters: [idParam], requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['signal'], properties: { signal: { enum: SIGNALS } } } } } } },
          { 400: 'Unknown signal', 404: 'Unknown program', 409: 'Not running' },
        ),
      },
      '/api/v1/programs/{id}/logs': {
        get: op(
          'Last lines of the stdout and stderr files',
          'programs',
          { 200: json(ref('Logs')) },
          {
            parameters: [
              idParam,
              { name: 'tail', in: 'query', schema: { type: 'integer', minimum: 0, maximum: 5000, default: 200 } },
              { name: 'source', in: 'query', schema: { enum: ['stdout', 'stderr', 'both'], default: 'both' } },
            ],
          },
          { 400: 'Invalid query', 404: 'Unknown program', 409: 'A log file cannot be read (a directory, permission denied)' },
        ),
      },
      '/api/v1/programs/{id}/logs/flush': {
        post: op(
          'Empty the stdout and stderr files in place (svc flush); rotated copies are kept',
          'programs',
          { 200: json({ type: 'object', required: ['id', 'flushed'], additionalProperties: false, properties: { id: { type: 'string', format: 'uuid' }, flushed: { type: 'array', items: { type: 'string' } } } }) },
          { parameters: [idParam] },
          { 404: 'Unknown program', 409: 'A log file cannot be emptied (a directory, permission denied)' },
        ),
      },
      ...otaPaths,
      ...reactionPaths,
      '/api/v1/system/shutdown': { post: op('Stop every program, then svcd exits', 'system', { 202: json({ type: 'object', properties: { status: { const: 'shutting_down' }, message: { type: 'string' } } }, 'Accepted') }) },
      '/api/v1/system/stats': { get: op('Host cpu and memory, refreshed about every 3 s', 'system', { 200: json(ref('SystemStats')) }, {}, { 503: 'Not sampled yet' }) },
      '/api/v1/system/storage': { get: op('Health of the state store and the event history: writable, held writes, quarantined records, damage found at start', 'system', { 200: json(ref('Storage')) }) },
      '/api/v1/system/storage/quarantine/{id}': {
        delete: op(
          'Delete a quarantined record for good',
          'system',
          { 200: json({ type: 'object', properties: { status: { const: 'discarded' }, id: { type: 'string' }, name: { type: ['string', 'null'] } } }) },
          { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }] },
          { 404: 'No such quarantined record', ...NOT_WRITTEN },
        ),
      },
      '/api/v1/system/storage/quarantine/{id}/restore': {
        post: op(
          'Put a quarantined record back among the programs, stopped, when it loads now (a newer svc, a name or dependency free again)',
          'system',
          { 200: json({ type: 'object', properties: { status: { const: 'restored' }, id: { type: 'string' }, name: { type: 'string' } }, required: ['status', 'id', 'name'] }) },
          { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }] },
          { 404: 'No such quarantined record', 409: 'It still cannot be loaded (the reason), or its name is taken', ...NOT_WRITTEN },
        ),
      },
      '/metrics': {
        get: {
          summary: 'Prometheus text exposition (see docs/observability.md for the families)',
          tags: ['observability'],
          responses: { 200: { description: 'OK', content: { 'text/plain': { schema: { type: 'string' } } } }, 401: error('Authentication required (auth_secret is set)') },
        },
      },
      '/ws': {
        get: {
          summary: 'WebSocket: stream new stdout and stderr lines of a program',
          description:
            'Upgrade to a WebSocket. Each text message is a LogLine JSON object. When auth is on, send Authorization: Bearer <credential>, the `token` query parameter, ' +
            'or (browsers) the Sec-WebSocket-Protocol values `svc.v1` and `bearer.<credential>` (or `base64url.bearer.<base64url>`); svcd selects `svc.v1`. ' +
            'Close codes: 4401 authentication required, 4403 role lacks the permission, 4404 unknown program or program removed, 4429 client too slow (reconnect), 1001 svcd shutting down.',
          tags: ['observability'],
          parameters: [
            { name: 'id', in: 'query', required: true, schema: { type: 'string', format: 'uuid' } },
            { name: 'token', in: 'query', required: false, schema: { type: 'string' }, description: 'Alternative to the Authorization header for browsers' },
          ],
          responses: {
            101: { description: 'Switching protocols; messages follow the LogLine schema', content: { 'application/json': { schema: ref('LogLine') } } },
            404: error('Not a WebSocket upgrade: a plain GET of /ws is not served'),
          },
        },
      },
      '/api/v1/watch': {
        get: op(
          'Server-Sent Events: a snapshot of every program, then its changes',
          'observability',
          { 200: { description: 'text/event-stream; each `data:` line is one JSON message: snapshot {programs, system}, program {program}, removed {id}, system {system} (docs/api.md)', content: { 'text/event-stream': { schema: { type: 'string' } } } } },
        ),
      },
      '/api/v1/openapi.json': { get: { summary: 'This document (only when enable_docs = true)', tags: ['health'], security: [], responses: { 200: json({ type: 'object' }), 404: error('Docs disabled') } } },
      ...morePaths,
      ...securityPaths(),
      '/': { get: { summary: 'The web dashboard page (docs/web.md)', tags: ['health'], security: [], responses: { 200: { description: 'HTML page', content: { 'text/html': { schema: { type: 'string' } } } }, 304: { description: 'Not modified (ETag)' }, 404: error('The dashboard is not built') } } },
      '/assets/{name}': {
        get: {
          summary: 'A hashed asset of the web dashboard (immutable; gzip when accepted)',
          tags: ['health'],
          security: [],
          parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { 200: { description: 'Script, style sheet or font', content: { '*/*': { schema: { type: 'string', format: 'binary' } } } }, 404: error('No such asset') },
        },
      },
      ...notifyPaths(),
      '/api/docs': { get: { summary: 'Interactive API docs (only when enable_docs = true)', tags: ['health'], security: [], responses: { 200: { description: 'HTML page', content: { 'text/html': { schema: { type: 'string' } } } }, 404: error('Docs disabled') } } },
    })),
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'The [server].auth_secret or an Access Token (security plugin); not required in open mode' } },
      schemas: {
        ProgramCreate: withConditionalProperties(withoutId(programCreateSchema)),
        EventRecord: eventRecordSchema,
        ProgramUpdate: withConditionalProperties(withoutId(programUpdateSchema)),
        Error: { type: 'object', required: ['status', 'message'], properties: { status: { const: 'error' }, message: { type: 'string' } } },
        Health: { type: 'object', properties: { status: { const: 'ok' }, version: { type: 'string' }, uptime_secs: { type: 'integer' } } },
        ProgramSummary: {
          type: 'object',
          properties: {
            id: { type: 'string', format: 'uuid' },
            name: { type: 'string' },
            group_name: { type: ['string', 'null'], description: 'The group batch actions select by (svc addition)' },
            status: { $ref: '#/components/schemas/Status' },
            pid: { type: ['integer', 'null'] },
            cpu_usage: { type: 'number', description: 'Percent of one core' },
            mem_usage: { type: 'integer', description: 'Resident set size, bytes' },
            restarts: { type: 'integer' },
            started_at: { type: ['integer', 'null'], description: 'Unix milliseconds' },
            removed: { const: true, description: 'Removed, its process still stopping (status Stopping): listed until the process has ended; DELETE with force=true ends it at once' },
          },
        },
        ProgramDetail: {
          allOf: [ref('ProgramSummary'), { type: 'object', properties: { config: ref('ProgramCreate'), state: { type: 'object', properties: { reload: { anyOf: [ref('ReloadView'), { type: 'null' }] }, last_reload: { anyOf: [ref('ReloadOutcome'), { type: 'null' }] } } } } }],
        },
        ...reloadSchemas,
        // Every status the daemon emits (state/status.ts), Scheduled included (cron programs).
        Status: { enum: [...PROGRAM_STATUSES] },
        ActionOutcome: {
          type: 'object',
          required: ['id', 'name', 'ok'],
          properties: {
            id: { type: 'string' },
            name: { type: 'string' },
            ok: { type: 'boolean' },
            status: { anyOf: [ref('Status'), { const: 'Removed' }], description: 'Status after the action (Removed after a remove)' },
            pid: { type: ['integer', 'null'] },
            error: { type: 'string' },
            warning: { type: 'string', description: 'The action took effect but is not on disk yet (a stop on a full data disk)' },
            note: { type: 'string', description: 'How the action was carried out (a reload: who took over, or "no health check: restarted, with downtime")' },
          },
        },
        Batch: {
          type: 'object',
          required: ['action'],
          properties: {
            target_ids: { type: 'array', items: { type: 'string', format: 'uuid' } },
            group_name: { type: 'string' },
            select_all: { type: 'boolean' },
            action: {
              type: 'object',
              required: ['type'],
              properties: {
                type: { enum: [...BATCH_ACTIONS] },
                payload: { type: ['object', 'null'], properties: { force: { type: 'boolean' }, signal: { enum: SIGNALS } } },
              },
            },
          },
        },
        BatchResult: {
          type: 'object',
          required: ['action', 'results'],
          properties: {
            action: { enum: [...BATCH_ACTIONS] },
            results: { type: 'array', items: ref('ActionOutcome'), description: 'One outcome per selected program; an unknown id is an outcome with ok false' },
          },
        },
        Logs: {
          type: 'object',
          properties: {
            id: { type: 'string', format: 'uuid' },
            logs: { type: 'array', items: { type: 'object', properties: { source: { enum: ['stdout', 'stderr'] }, content: { type: 'string' } } } },
          },
        },
        LogLine: {
          type: 'object',
          required: ['source', 'content', 'ts'],
          properties: {
            source: { enum: ['stdout', 'stderr'] },
            content: { type: 'string', description: 'One line without its newline' },
            ts: { type: 'number', description: 'Unix seconds (with milliseconds) when svcd read the line' },
          },
        },
        Storage: storageSchema,
        OtaView: otaViewSchema,
        SystemStats: {
          type: 'object',
          required: ['cpu_percent', 'memory_used_bytes', 'memory_total_bytes', 'timestamp'],
          properties: {
            cpu_percent: { type: 'number' },
            memory_used_bytes: { type: 'integer' },
            memory_total_bytes: { type: 'integer' },
            timestamp: { type: 'integer', description: 'Unix seconds' },
          },
        },
      },
    },
  };
}
