import { readFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import { SvcError } from '../../state/errors.js';
import { programProperties } from '../../state/schema/program-schema.js';
import { CliError } from './errors.js';
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

/** Builds a (partial) program configuration from a file (`fromFile`, when the caller read it already) and the options; options win. */
export async function configFromOptions(o: ConfigOptions, defaultSource: string, fromFile?: Record<string, unknown>): Promise<Record<string, unknown>> {
  const config: Record<string, unknown> = { ...(fromFile ?? (o.file ? await readConfigFile(o.file) : {})) };
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

/** Reads a config file; syntax errors come back as `file:line:col: ...`. */
export async function readConfigFile(file: string): Promise<Record<string, unknown>> {
  // Parsers (yaml, smol-toml) load only when a file is given.
  const { formatFromName, parseDocumentText } = await import('./stack-tools.js');
  const format = formatFromName(file);
  if (!format) throw new CliError(`${file}: unknown format (use .json, .toml, .yaml or .yml)`, 2);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new CliError(`${file}: cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, 2);
  }
  try {
    const doc = parseDocumentText(text, format, file);
    if (typeof doc.value !== 'object' || doc.value === null || Array.isArray(doc.value)) throw new CliError(`${file}: must hold one program configuration (a table/object)`, 2);
    // An unknown field is the file's mistake: said at its place in the file (svcd could only
    // point into the JSON body the CLI sends).
    const unknown = Object.keys(doc.value).filter((key) => !Object.hasOwn(programProperties, key));
    if (unknown.length > 0) {
      const where = (key: string) => {
        const pos = doc.locate([key]);
        return pos ? `${file}:${pos.line}:${pos.column}` : file;
      };
      const hint = (key: string) => (key === 'services' ? ' (a stack file: use svc apply)' : '');
      throw new CliError(unknown.map((key) => `${where(key)}: ${key}: unknown field${hint(key)}`).join('\n'), 2);
    }
    return doc.value as Record<string, unknown>;
  } catch (err) {
    if (err instanceof SvcError) {
      const m = /^JSON line (\d+) column (\d+): (.*)$/.exec(err.message);
      throw new CliError(m ? `${file}:${m[1]}:${m[2]}: ${m[3]}` : err.message, 2);
    }
    throw err;
  }
}
