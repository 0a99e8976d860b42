import type { ErrorObject, ValidateFunction } from 'ajv';
import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import { invalid, forProgram } from '../errors.js';
import { ARTIFACT_DEFAULTS, PROGRAM_DEFAULTS, type ProgramConfig } from '../program.js';
import { NO_NUL, programCreateSchema, programUpdateSchema } from './program-schema.js';
import { formatJsonPosition, type Locator, type TextPosition } from './json-body.js';
import { checkLogPath } from './log-path.js';
import { cronHashSeed } from '../cron-hash.js';
import { splitCommand } from '../command-line.js';
import { isAllowedArtifactUrl } from './artifact-url.js';
import { AJV_OPTIONS, schemaDigest } from './validator-options.js';

/** What validation needs to know beyond the body itself. */
export interface ValidationContext {
  /** `[storage].log_dir`: custom log paths must resolve under it. */
  logDir: string;
  /** Finds a JSON path in the source text, for `JSON line N column M` on unknown fields. */
  locate?: Locator;
  /** Prefix for every message, e.g. `services[2] (name=web)` in a stack. */
  prefix?: string;
  /** Path of the body inside a larger document (a stack service), for the locator. */
  basePath?: (string | number)[];
  /** How a located position is written (default `JSON line N column M`; TOML/YAML use `path:line:col`). */
  formatPosition?: (pos: TextPosition) => string;
  /** Skip the log path check (offline checks that do not know the daemon's log_dir). */
  logDirUnknown?: boolean;
  /**
   * A record svcd stored before (loading the store): the checks of what a probe can reach are
   * left out. An older svcd took such a health check; quarantined, its program would no longer
   * run at all, where it ran with a probe that always fails (which `state.health` shows).
   */
  stored?: boolean;
  /**
   * The prefix of a problem with one field, given the field's path inside the body (a stack
   * service: `path:line:col` of that field, then the service). Each problem is then its own line,
   * and `prefix` is not used.
   */
  prefixAt?: (path: (string | number)[]) => string;
}

/** One problem: the field's path inside the body (for its position) and the message, which names the field. */
interface Problem {
  path: (string | number)[];
  text: string;
}

const requireCjs = createRequire(import.meta.url);

let compiled: { create: ValidateFunction; update: ValidateFunction } | undefined;

/**
 * The validators, on first use: the code `npm run build` generated from these schemas
 * (scripts/build-validators.mjs), else compiled here with ajv (~100 ms and ~10 MiB, which
 * commands that never validate, such as `svc list`, should not pay at start-up). The daemon calls
 * this once at boot so that its first write does not pay either.
 */
export function validators(): { create: ValidateFunction; update: ValidateFunction } {
  compiled ??= generatedValidators() ?? compileValidators();
  return compiled;
}

/** The build's generated validators, when they were made from the schemas in this build. */
function generatedValidators(): { create: ValidateFunction; update: ValidateFunction } | undefined {
  let generated: { create: ValidateFunction; update: ValidateFunction; digest: string };
  try {
    generated = requireCjs('./program-validators.cjs') as typeof generated;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND') return undefined; // tsc without the build step
    throw err;
  }
  return generated.digest === schemaDigest(programCreateSchema, programUpdateSchema) ? { create: generated.create, update: generated.update } : undefined;
}

function compileValidators(): { create: ValidateFunction; update: ValidateFunction } {
  const { Ajv } = requireCjs('ajv') as typeof import('ajv');
  const ajv = new Ajv(AJV_OPTIONS);
  return { create: ajv.compile(programCreateSchema), update: ajv.compile(programUpdateSchema) };
}

const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Human wording for fields whose schema is a union or a pattern (ajv's own text is unhelpful there). */
const FIELD_HINTS: Record<string, string> = {
  name: "must start with a letter or digit and use only letters, digits, '.', '_', '-', '@' (at most 64 characters)",
  group_name: "must start with a letter or digit and use only letters, digits, '.', '_', '-', '@' (at most 64 characters)",
  autorestart: "must be one of 'unexpected', 'true', 'false'",
  user: 'must be a user name or a numeric uid from 0 to 2147483647',
  group: 'must be a group name or a numeric gid from 0 to 2147483647',
  source: 'must not contain control characters (at most 128 characters)',
  'health_check.url': 'must be an http:// or https:// URL',
  'artifact.source': 'must be an http:// or https:// URL',
  'artifact.checksum': 'must be a SHA-256 digest of 64 hex characters',
  'artifact.destination': 'must be an absolute path',
  'artifact.restart_policy': "must be 'immediate', 'manual', 'signal' or 'signal:<hup|int|term|quit|usr1|usr2>'",
  'resource_limits.memory_limit': 'must be a number of bytes, at least 4096 (536870912 for 512 MiB; a unit such as 512M is not read)',
  'health_check.interval_secs': "must be a number of seconds (10, or 0.5; a unit such as '10s' is not read)",
  'health_check.timeout_secs': "must be a number of seconds (5, or 0.5; a unit such as '5s' is not read)",
  'health_check.start_period_secs': "must be a number of seconds (30, or 0.5; a unit such as '30s' is not read)",
  'resource_limits.cpu_quota': "must be a number, the percent of one core (50 is half a core, 200 two cores; not a string such as '50%')",
};

/** Validates a create body (or a stack service); returns the normalized config or throws a 400. */
export function validateCreate(body: unknown, ctx: ValidationContext): ProgramConfig {
  const name = nameOf(body);
  const { create } = validators();
  if (!create(body)) fail(create.errors ?? [], name, ctx);
  const config = normalize(body as Record<string, unknown>) as unknown as ProgramConfig;
  checkSemantics(config, ctx, name);
  return config;
}

/**
 * Validates an update body against the current config and returns the merged config.
 * Present fields replace, `null` removes, `""` clears env_file and source, absent fields stay.
 */
export function validateUpdate(body: unknown, current: ProgramConfig, ctx: ValidationContext): ProgramConfig {
  const name = nameOf(body) ?? current.name;
  const { update } = validators();
  if (!update(body)) fail(update.errors ?? [], name, ctx);
  const merged: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(normalize(body as Record<string, unknown>))) {
    const clears = value === null || (value === '' && (key === 'env_file' || key === 'source'));
    if (clears) delete merged[key];
    else merged[key] = value;
  }
  const config = merged as unknown as ProgramConfig;
  checkSemantics(config, ctx, name);
  return config;
}

function nameOf(body: unknown): string | undefined {
  const name = (body as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name : undefined;
}

/** Accepts booleans for autorestart (TOML users write `autorestart = false`) and stores the string. */
function normalize(body: Record<string, unknown>): Record<string, unknown> {
  const out = { ...body };
  if (typeof out.autorestart === 'boolean') out.autorestart = String(out.autorestart);
  return out;
}

function checkSemantics(config: ProgramConfig, ctx: ValidationContext, name: string | undefined): void {
  const problems: Problem[] = [];
  // Each message starts with its field's dotted name, which is also its path.
  const add = (text: string): void => {
    problems.push({ path: text.slice(0, text.indexOf(':')).split('.'), text });
  };
  if (UUID_SHAPE.test(config.name)) add('name: must not look like a UUID (ids and names share the CLI)');
  for (const key of ['stdout_logfile', 'stderr_logfile'] as const) {
    const path = config[key];
    const problem = path === undefined || ctx.logDirUnknown ? null : checkLogPath(path, ctx.logDir);
    if (problem) add(`${key}: ${problem}`);
  }
  if (config.cron !== undefined) {
    const problem = cronProblem(config.cron, config.cron_tz, config.name);
    if (problem) add(`cron: ${problem}`);
  }
  if (config.cron_tz !== undefined && !isTimeZone(config.cron_tz)) {
    add(`cron_tz: unknown time zone '${config.cron_tz}' (use an IANA name such as 'UTC' or 'Europe/Berlin')`);
  }
  if (config.depends_on?.includes(config.name)) {
    add(`depends_on: dependency cycle detected: ${config.name} -> ${config.name}`);
  }
  const artifact = config.artifact;
  if (artifact && !isAllowedArtifactUrl(artifact.source)) {
    add('artifact.source: must use https (plain http is allowed only for loopback hosts)');
  }
  if (!ctx.stored) {
    for (const problem of healthCheckProblems(config.health_check)) add(problem);
    for (const problem of commandLineProblems(config)) add(problem);
  }
  const checked = config.health_check !== undefined && config.health_check.enabled !== false;
  if (artifact?.restart_policy?.startsWith('signal') && !checked) {
    add(`artifact.restart_policy: '${artifact.restart_policy}' requires an enabled health_check`);
  }
  if (artifact?.destination.endsWith('/')) add('artifact.destination: must name a file, not a directory');
  // Without a health check the new binary must stay up for startsecs inside the window.
  const verify = artifact?.verify_timeout ?? ARTIFACT_DEFAULTS.verify_timeout;
  const startsecs = config.startsecs ?? PROGRAM_DEFAULTS.startsecs;
  if (artifact && !checked && verify > 0 && verify <= startsecs) {
    add(`artifact.verify_timeout: must be longer than startsecs (${startsecs} s) when there is no health check (0 disables validation)`);
  }
  if (problems.length > 0) throw invalid(report(ctx, name, problems));
}

/**
 * A command line that is split into words (`command` without `args`, the hooks, an exec check
 * without `args`) and gives no word or leaves a quote open: every start would fail with it
 * (`spawn failed: command: is empty`), so it is refused when written, not at each start.
 */
function commandLineProblems(config: ProgramConfig): string[] {
  const lines: [string, string | undefined][] = [
    ['command', config.args === undefined ? config.command : undefined],
    ['hooks.pre_start', config.hooks?.pre_start],
    ['hooks.post_stop', config.hooks?.post_stop],
    ['health_check.command', config.health_check?.type === 'exec' && config.health_check.args === undefined ? config.health_check.command : undefined],
  ];
  const problems: string[] = [];
  for (const [field, line] of lines) {
    if (line === undefined) continue;
    try {
      if (splitCommand(line).length === 0) problems.push(`${field}: is empty (only white space)`);
    } catch (err) {
      problems.push(`${field}: ${(err as Error).message} (quotes are read as a POSIX shell reads them)`);
    }
  }
  return problems;
}

type CheckType = NonNullable<ProgramConfig['health_check']>['type'];

/** The fields each type of check leaves to the others. */
const FOREIGN_CHECK_FIELDS: Record<CheckType, readonly ('url' | 'host' | 'port' | 'command' | 'args')[]> = {
  http: ['host', 'port', 'command', 'args'],
  tcp: ['url', 'command', 'args'],
  exec: ['url', 'host', 'port'],
};

const CHECK_TAKES: Record<CheckType, string> = {
  http: 'an http check requests url',
  tcp: 'a tcp check connects to host and port',
  exec: 'an exec check runs command and args',
};

/** A host name (labels of letters, digits, '-' and '_', as resolvers take them), optionally ending in '.'. */
const HOST_NAME = /^(?=.{1,253}\.?$)[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*\.?$/;

/**
 * What the schema's patterns let through but a probe could never reach: a URL that does not parse
 * (port 99999, an open '['), a tcp host written with its port, brackets or a scheme.
 */
function healthCheckProblems(check: ProgramConfig['health_check']): string[] {
  const problems: string[] = [];
  // A field of another type's check is a mistake, not an option: it would be stored and never used.
  for (const field of check ? FOREIGN_CHECK_FIELDS[check.type] : []) {
    if (check?.[field] !== undefined) problems.push(`health_check.${field}: ${CHECK_TAKES[check.type]}, not ${field}`);
  }
  if (check?.url !== undefined && !URL.canParse(check.url)) {
    problems.push('health_check.url: is not a valid URL (a host name or address, and a port from 1 to 65535 if any)');
  }
  const host = check?.host;
  if (host !== undefined && isIP(host) === 0 && !HOST_NAME.test(host)) {
    const bracketed = /^\[(.*)\]$/.exec(host);
    const withPort = /^([^:/]+):(\d+)$/.exec(host);
    const hint = bracketed && isIP(bracketed[1] ?? '') === 6 ? ` (write an IPv6 address without brackets: '${bracketed[1]}')` :
      withPort ? ` (the port is a field of its own: host = '${withPort[1]}', port = ${withPort[2]})` :
      host.includes('://') ? ' (a tcp check takes a host, not a URL; an http check takes url)' : '';
    problems.push(`health_check.host: must be a host name or an IP address${hint}`);
  }
  return problems;
}

// cron-parser (and its date library) is loaded on first use: most daemons never see a cron field.
type CronParser = typeof import('cron-parser');

/** The aliases cron-parser 5 reads (docs/cron.md). */
const CRON_ALIASES = ['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@hourly', '@minutely', '@secondly', '@weekdays', '@weekends'];

/**
 * A cron expression is 5 fields (minute hour day-of-month month day-of-week), 6 fields (seconds
 * first) or one @alias (@hourly, @daily, ...); cron-parser alone would also take 3 or 4 fields.
 */
function cronProblem(expression: string, tz: string | undefined, name: string): string | null {
  const fields = expression.trim().split(/\s+/);
  const alias = fields.length === 1 && fields[0].startsWith('@');
  if (!alias && fields.length !== 5 && fields.length !== 6) {
    return `invalid expression '${expression}': expected 5 fields (minute hour day month weekday) or 6 (seconds first), got ${fields.length}`;
  }
  // cron-parser would say 'cannot resolve alias "reb"' for @reboot.
  if (alias && !CRON_ALIASES.includes(fields[0])) {
    const reboot = fields[0].toLowerCase() === '@reboot' ? ' (a program that runs once at boot is a plain program with autostart = true)' : '';
    return `unknown alias '${fields[0]}': one of ${CRON_ALIASES.join(', ')}${reboot}`;
  }
  try {
    (requireCjs('cron-parser') as CronParser).CronExpressionParser.parse(expression, { strict: false, tz: tz !== undefined && isTimeZone(tz) ? tz : undefined, hashSeed: cronHashSeed(expression, name) }).next();
    return null;
  } catch (err) {
    const text = (err as Error).message;
    // cron-parser's words for '0 0 31 2 *' say nothing of what is wrong with it.
    if (text === 'Invalid explicit day of month definition') return `invalid expression '${expression}': none of its months has its day of the month (such as 31 in April or 30 in February), so it would never fire`;
    return `invalid expression '${expression}': ${text}`;
  }
}

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

function withPrefix(ctx: ValidationContext, name: string | undefined, message: string): string {
  return ctx.prefix ? `${ctx.prefix}: ${message}` : forProgram(name, message);
}

function fail(errors: ErrorObject[], name: string | undefined, ctx: ValidationContext): never {
  const problems = new Map<string, Problem>();
  for (const error of errors) {
    const described = describe(error, ctx);
    if (described && !problems.has(described.field)) problems.set(described.field, { path: described.path, text: described.text });
  }
  if (problems.size === 0) throw invalid(withPrefix(ctx, name, 'invalid program configuration'));
  throw invalid(report(ctx, name, [...problems.values()]));
}

/** The message of a refusal: problems joined with `; ` after one prefix, or a line each with its field's own (prefixAt). */
function report(ctx: ValidationContext, name: string | undefined, problems: Problem[]): string {
  if (ctx.prefixAt) return byPlace(problems.map((p) => `${ctx.prefixAt!(p.path)}: ${p.text}`)).join('\n');
  return withPrefix(ctx, name, problems.map((p) => p.text).join('; '));
}

/** Problems in the order of the file (`web.toml:4:1: …` before `web.toml:5:1: …`), as a compiler lists them; the schema's order otherwise. */
function byPlace(lines: string[]): string[] {
  const place = (line: string) => {
    const m = /^[^\n]*?:(\d+):(\d+): /.exec(line);
    return m ? [Number(m[1]), Number(m[2])] : [Infinity, Infinity];
  };
  return lines
    .map((line, i) => ({ line, i, at: place(line) }))
    .sort((a, b) => a.at[0] - b.at[0] || a.at[1] - b.at[1] || a.i - b.i)
    .map((p) => p.line);
}

function fieldOf(instancePath: string): string {
  return instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part), '');
}

function describe(error: ErrorObject, ctx: ValidationContext): { field: string; path: (string | number)[]; text: string } | null {
  const described = describeField(error, ctx);
  if (!described) return null;
  const path: (string | number)[] = error.instancePath.split('/').slice(1).map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  // A missing field has no place of its own: its object's place. An unknown one has.
  if (error.keyword === 'additionalProperties') path.push((error.params as { additionalProperty: string }).additionalProperty);
  return { ...described, path };
}

function describeField(error: ErrorObject, ctx: ValidationContext): { field: string; text: string } | null {
  const field = fieldOf(error.instancePath);
  switch (error.keyword) {
    case 'anyOf':
    case 'oneOf':
    case 'if':
      return null; // the branch errors say more
    case 'required': {
      const missing = (error.params as { missingProperty: string }).missingProperty;
      const path = field ? `${field}.${missing}` : missing;
      return { field: path, text: `${path}: is required` };
    }
    case 'additionalProperties': {
      const extra = (error.params as { additionalProperty: string }).additionalProperty;
      const path = field ? `${field}.${extra}` : extra;
      const jsonPath = [...(ctx.basePath ?? []), ...error.instancePath.split('/').slice(1), extra];
      const pos = ctx.prefixAt ? undefined : ctx.locate?.(jsonPath); // prefixAt puts the place first
      const where = pos ? ` at ${(ctx.formatPosition ?? formatJsonPosition)(pos)}` : '';
      return { field: path, text: `${path}: unknown field${where}` };
    }
    case 'propertyNames': {
      // `env` is the one map whose keys are checked: names a process environment can hold.
      const key = JSON.stringify((error.params as { propertyName: string }).propertyName);
      return { field, text: `${field}: variable name ${key} must be non-empty, without '=' or a NUL byte` };
    }
    case 'type':
      if ((error.params as { type: string }).type === 'null') return null; // update's "or null" branch
      break;
    case 'enum': {
      const allowed = (error.params as { allowedValues: unknown[] }).allowedValues;
      return { field, text: `${field}: ${FIELD_HINTS[field] ?? `must be one of ${allowed.map((v) => `'${String(v)}'`).join(', ')}`}` };
    }
  }
  if ((error as { propertyName?: string }).propertyName !== undefined) return null; // the propertyNames error names the key
  if (error.keyword === 'pattern' && (error.params as { pattern: string }).pattern === NO_NUL) return { field, text: `${field}: must not contain a NUL byte` };
  const hint = FIELD_HINTS[field.replace(/\[\d+\]/g, '')];
  if (hint && (error.keyword === 'pattern' || error.keyword === 'type' || error.keyword === 'minLength' || error.keyword === 'maxLength')) {
    return { field, text: `${field}: ${hint}` };
  }
  return { field, text: `${field || 'body'}: ${error.message ?? 'is invalid'}` };
}
