import { readFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import { SvcError } from '../../state/errors.js';
import type { ProgramConfig } from '../../state/program.js';
import { programProperties } from '../../state/schema/program-schema.js';
import { CliError, unknownFormat } from './errors.js';
import { setField } from './dotted-fields.js';

/** Options shared by `svc add` and `svc update`; each maps to one program field. */
export function withConfigOptions(cmd: Command): Command {
  return cmd
    .option('-f, --file <file>', 'read the program configuration from a JSON, TOML or YAML file')
    .option('--cwd <dir>', 'working directory')
    .option('-e, --env <KEY=VALUE>', 'environment variable (repeatable)', collect)
    .option('--env-file <file>', 'dotenv file read at each start ("" clears on update)')
    .addOption(new Option('--autorestart <mode>', 'restart policy').choices(['unexpected', 'true', 'false']))
    .option('--exitcodes <codes>', 'comma-separated expected exit codes (default 0)')
    .option('--startsecs <n>', 'seconds of stable run that reset the retry counter')
    .option('--stopsecs <n>', 'seconds between SIGTERM and SIGKILL on stop')
    .option('--retry-limit <n>', 'retries before Fatal (default unlimited)')
    .option('--priority <n>', 'start order ascending, stop order descending (default 999)')
    .option('--group <name>', 'svc group name, for batch actions (field group_name)')
    .option('--user <user>', 'run as this user (svcd must be root)')
    .option('--unix-group <group>', 'run with this Unix group (field group; svcd must be root)')
    .option('--depends-on <names>', 'comma-separated program names that must be up first')
    .option('--cron <expr>', 'run on a cron schedule instead of continuously (5 fields, or 6 with seconds first)')
    .option('--cron-tz <zone>', 'IANA time zone of the cron expression (default: the daemon\'s local zone)')
    .option('--no-autostart', 'do not start at boot or on creation (a cron schedule is active regardless)')
    .option('--source <label>', 'provenance label (default cli:add / cli:update)')
    .option('--set <field=value>', 'set any field (repeatable); value parsed as JSON when it is valid JSON; a.b=value sets one field of an object field', collect);
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

export interface ConfigOptions {
  file?: string;
  cwd?: string;
  env?: string[];
  envFile?: string;
  autorestart?: string;
  exitcodes?: string;
  startsecs?: string;
  stopsecs?: string;
  retryLimit?: string;
  priority?: string;
  group?: string;
  user?: string;
  unixGroup?: string;
  dependsOn?: string;
  cron?: string;
  cronTz?: string;
  autostart?: boolean;
  source?: string;
  set?: string[];
}

/** Builds a (partial) program configuration from a file's fields (`fromFile`, readConfigFile) and the options; options win. */
export function configFromOptions(o: ConfigOptions, defaultSource: string, fromFile?: Record<string, unknown>): Record<string, unknown> {
  const config: Record<string, unknown> = { ...fromFile };
  const int = (name: string, v: string | undefined) => {
    if (v === undefined) return undefined;
    if (!/^-?\d+$/.test(v)) throw new CliError(`--${name}: must be an integer, got '${v}'`, 2);
    return Number(v);
  };
  const put = (key: string, value: unknown) => {
    if (value !== undefined) config[key] = value;
  };
  put('cwd', o.cwd);
  if (o.env) config.env = { ...(config.env as object), ...parsePairs(o.env, '--env') };
  put('env_file', o.envFile);
  put('autorestart', o.autorestart);
  put('exitcodes', o.exitcodes?.split(',').map((c) => int('exitcodes', c.trim())));
  put('startsecs', int('startsecs', o.startsecs));
  put('stopsecs', int('stopsecs', o.stopsecs));
  put('retry_limit', int('retry-limit', o.retryLimit));
  put('priority', int('priority', o.priority));
  put('group_name', o.group);
  put('user', o.user);
  put('group', o.unixGroup);
  put('depends_on', o.dependsOn?.split(',').map((n) => n.trim()).filter(Boolean));
  put('cron', o.cron);
  put('cron_tz', o.cronTz);
  if (o.autostart === false) config.autostart = false;
  for (const [key, value] of Object.entries(parsePairs(o.set ?? [], '--set'))) setField(config, key, parseLoose(value));
  config.source ??= o.source ?? defaultSource;
  return config;
}

function parsePairs(pairs: string[], flag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new CliError(`${flag}: expected KEY=VALUE, got '${pair}'`, 2);
    out[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return out;
}

function parseLoose(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** A program configuration read from a `-f` file, and where each of its fields is written. */
export interface ConfigFile {
  file: string;
  value: Record<string, unknown>;
  /** `file:line:col` of a field (its path), else of its nearest enclosing field written there; null if none is. */
  place(path: (string | number)[]): string | null;
}

/** Reads a config file; syntax errors come back as `file:line:col: ...`. */
export async function readConfigFile(file: string): Promise<ConfigFile> {
  // Parsers (yaml, smol-toml) load only when a file is given.
  const { formatFromName, parseDocumentText } = await import('./stack-tools.js');
  const format = formatFromName(file);
  if (!format) throw unknownFormat(file);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new CliError(`${file}: cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, 2);
  }
  try {
    const doc = parseDocumentText(text, format, file);
    if (typeof doc.value !== 'object' || doc.value === null || Array.isArray(doc.value)) throw new CliError(`${file}: must hold one program configuration (a table/object)`, 2);
    const place = (path: (string | number)[]): string | null => {
      for (let n = path.length; n > 0; n--) {
        const pos = doc.locate(path.slice(0, n));
        if (pos) return `${file}:${pos.line}:${pos.column}`;
      }
      return null;
    };
    // An unknown field is the file's mistake: said at its place in the file (svcd could only
    // point into the JSON body the CLI sends).
    const unknown = Object.keys(doc.value).filter((key) => !Object.hasOwn(programProperties, key));
    if (unknown.length > 0) {
      const hint = (key: string) => (key === 'services' ? ' (a stack file: use svc apply)' : '');
      throw new CliError(unknown.map((key) => `${place([key]) ?? file}: ${key}: unknown field${hint(key)}`).join('\n'), 2);
    }
    return { file, value: doc.value as Record<string, unknown>, place };
  } catch (err) {
    if (err instanceof SvcError) {
      const m = /^JSON line (\d+) column (\d+): (.*)$/.exec(err.message);
      throw new CliError(m ? `${file}:${m[1]}:${m[2]}: ${m[3]}` : err.message, 2);
    }
    throw err;
  }
}

/**
 * A configuration that came from a `-f` file is validated here before it is sent, as `svc apply`
 * checks a stack, so that a value the schema refuses is named at its place in the file (svcd sees
 * only the JSON the CLI builds): `file:line:col: stopsecs: must be integer`, exit 2. A field an
 * option set keeps the program's name (`program 'web': …`). `current`: the program an update
 * changes. What only svcd can judge (log paths under its log_dir, names taken) is left to it.
 */
export async function checkFileConfig(from: ConfigFile, config: Record<string, unknown>, name: string, current?: ProgramConfig): Promise<void> {
  const { validateCreate, validateUpdate } = await import('../../state/schema/validate.js');
  // A field is the file's while the options left its value as the file gave it.
  const prefixAt = (path: (string | number)[]) => {
    const root = path[0];
    const fromFile = typeof root === 'string' && Object.hasOwn(from.value, root) && config[root] === from.value[root];
    return (fromFile ? from.place(path) : null) ?? `program '${name}'`;
  };
  const ctx = { logDir: '/', logDirUnknown: true, prefixAt };
  try {
    if (current) validateUpdate(config, current, ctx);
    else validateCreate(config, ctx);
  } catch (err) {
    if (err instanceof SvcError) throw new CliError(err.message, 2);
    throw err;
  }
}
