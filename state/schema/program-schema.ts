/**
 * The one schema of a program configuration (JSON Schema, compiled by ajv). Create, update,
 * stack apply, the CLI, offline `svc check` and the OpenAPI document all derive from it.
 * Defaults are not written into stored configs; `withDefaults` (program-defaults.ts) applies them.
 */
const seconds = { type: 'integer', minimum: 0, maximum: 31_536_000 } as const;
/** Strings handed to the kernel (exec, chdir, open, environ) end at a NUL byte: refused up front. */
export const NO_NUL = '^[^\\u0000]*$';
const text = (minLength: number, maxLength: number) => ({ type: 'string', minLength, maxLength, pattern: NO_NUL }) as const;
const command = text(1, 4096);
/** A name, or a numeric id within what both the kernel and Node's spawn accept (int32, not -1). */
const identity = { oneOf: [text(1, 64), { type: 'integer', minimum: 0, maximum: 2_147_483_647 }] } as const;

export const PROGRAM_NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}$';

export const healthCheckSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['type'],
  properties: {
    type: { enum: ['http', 'tcp', 'exec'] },
    url: { type: 'string', pattern: '^https?://[^\\s]+$', maxLength: 2048 },
    host: { type: 'string', minLength: 1, maxLength: 255 },
    port: { type: 'integer', minimum: 1, maximum: 65535 },
    command,
    args: { type: 'array', items: text(0, 65536), maxItems: 256 },
    enabled: { type: 'boolean' },
    interval_secs: { type: 'number', exclusiveMinimum: 0, maximum: 86400 },
    timeout_secs: { type: 'number', exclusiveMinimum: 0, maximum: 3600 },
    failure_threshold: { type: 'integer', minimum: 1, maximum: 1000 },
    success_threshold: { type: 'integer', minimum: 1, maximum: 1000 },
    start_period_secs: { type: 'number', minimum: 0, maximum: 86400 },
    restart_on_failure: { type: 'boolean' },
  },
  // `required: ['type']` in each `if`: without a type no branch applies (else all three did, and
  // a check missing its type was told that url and command were required too).
  allOf: [
    { if: { required: ['type'], properties: { type: { const: 'http' } } }, then: { required: ['url'] } },
    { if: { required: ['type'], properties: { type: { const: 'tcp' } } }, then: { required: ['port'] } },
    { if: { required: ['type'], properties: { type: { const: 'exec' } } }, then: { required: ['command'] } },
  ],
} as const;

export const artifactSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['source', 'checksum', 'destination'],
  properties: {
    source: { type: 'string', pattern: '^https?://[^\\s]+$', maxLength: 2048 },
    checksum: { type: 'string', pattern: '^[A-Fa-f0-9]{64}$' },
    destination: { type: 'string', pattern: '^/[^\\u0000]*$', maxLength: 4096 },
    extract: { type: 'boolean' },
    restart_policy: { type: 'string', pattern: '^(immediate|manual|signal|signal:(hup|int|term|quit|usr1|usr2))$' },
    download_timeout: seconds,
    verify_timeout: seconds,
  },
} as const;

export const programProperties = {
  name: { type: 'string', pattern: PROGRAM_NAME_PATTERN },
  command,
  args: { type: 'array', items: text(0, 65536), maxItems: 4096 },
  cwd: text(1, 4096),
  user: identity,
  group: identity,
  env: {
    type: 'object',
    propertyNames: { pattern: '^[^=\\u0000]+$' },
    additionalProperties: text(0, 1_048_576),
  },
  env_file: text(0, 4096),
  autostart: { type: 'boolean' },
  autorestart: { oneOf: [{ enum: ['unexpected', 'true', 'false'] }, { type: 'boolean' }] },
  exitcodes: { type: 'array', items: { type: 'integer', minimum: 0, maximum: 255 }, maxItems: 256 },
  startsecs: seconds,
  stopsecs: seconds,
  retry_limit: { type: 'integer', minimum: 0, maximum: 1_000_000 },
  backoff_secs: { type: 'number', minimum: 0, maximum: 3600 },
  backoff_max_secs: { type: 'number', minimum: 0, maximum: 86400 },
  priority: { type: 'integer', minimum: -1_000_000, maximum: 1_000_000 },
  group_name: { type: 'string', pattern: PROGRAM_NAME_PATTERN },
  depends_on: { type: 'array', items: { type: 'string', minLength: 1 }, uniqueItems: true, maxItems: 256 },
  health_check: healthCheckSchema,
  hooks: {
    type: 'object',
    additionalProperties: false,
    properties: { pre_start: command, post_stop: command },
  },
  stdout_logfile: text(1, 4096),
  stderr_logfile: text(1, 4096),
  artifact: artifactSchema,
  cron: { type: 'string', minLength: 1, maxLength: 256 },
  cron_tz: { type: 'string', minLength: 1, maxLength: 64 },
  on_overlap: { enum: ['skip', 'queue', 'kill'] },
  catchup: { enum: ['skip', 'latest', 'all'] },
  jitter_sec: { type: 'number', minimum: 0, maximum: 86400 },
  kill_after_secs: { type: 'number', exclusiveMinimum: 0, maximum: 31_536_000 },
  max_concurrent: { type: 'integer', minimum: 1, maximum: 64 },
  max_queued: { type: 'integer', minimum: 0, maximum: 100_000 },
  resource_limits: {
    type: 'object',
    additionalProperties: false,
    properties: {
      // At most 2^53 - 1: a larger number has no exact integer value, and memory.max refuses its exponent form.
      memory_limit: { type: 'number', minimum: 4096, maximum: Number.MAX_SAFE_INTEGER },
      cpu_quota: { type: 'number', exclusiveMinimum: 0, maximum: 100_000 },
    },
  },
  source: { type: 'string', maxLength: 128, pattern: '^[^\\u0000-\\u001f\\u007f]*$' },
} as const;

/** The create body (and a stack service): name and command are required. */
export const programCreateSchema = {
  $id: 'ProgramCreate',
  type: 'object',
  additionalProperties: false,
  required: ['name', 'command'],
  properties: programProperties,
} as const;

/**
 * The update body: every field optional. `null` removes an optional field; `""` clears
 * `env_file` and `source` (spec). name and command cannot be removed.
 */
export const programUpdateSchema = {
  $id: 'ProgramUpdate',
  type: 'object',
  additionalProperties: false,
  properties: Object.fromEntries(
    Object.entries(programProperties).map(([key, schema]) => [
      key,
      key === 'name' || key === 'command' ? schema : { anyOf: [schema, { type: 'null' }] },
    ]),
  ),
} as const;
