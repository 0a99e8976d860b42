import { resolve } from 'node:path';
import { invalid } from '../../../state/errors.js';
import type { ProgramConfig } from '../../../state/program.js';
import type { Findings } from '../report.js';
import { NameRegistry, toProgramName } from '../common/names.js';
import { iniBoolean, isOwnOutput, signalName, wholeNumber } from '../common/values.js';
import { parseEnvironment } from './environment.js';
import { envExpansions, expand, type Expansions } from './expand.js';
import type { IniSection } from './ini.js';

export interface ProgramContext {
  section: IniSection;
  /** `x` of `[program:x]`. */
  programName: string;
  /** The `[group:g]` that lists it, if any (else supervisord's group is the program itself). */
  groupName: string | null;
  /** Folder of the file the section is in (`%(here)s`). */
  here: string;
  env: Record<string, string | undefined>;
  hostname: string;
  /** `[supervisord] environment`, which every program inherits. */
  globalEnv: Record<string, string>;
  findings: Findings;
  names: NameRegistry;
}

/** supervisord's defaults that differ from svc's, written out so programs behave as before. */
const SUPERVISORD_DEFAULTS = { startsecs: 1, startretries: 3 };

/** Options svc maps (read below); every other option of the section is reported. */
const MAPPED = new Set([
  'command', 'process_name', 'numprocs', 'numprocs_start', 'priority', 'autostart', 'startsecs', 'startretries', 'autorestart',
  'exitcodes', 'stopsignal', 'stopwaitsecs', 'stopasgroup', 'killasgroup', 'user', 'redirect_stderr', 'stdout_logfile',
  'stderr_logfile', 'environment', 'directory',
]);

const UNMAPPED: Record<string, { why: string; neutral?: (v: string) => boolean }> = {
  umask: { why: 'svc starts programs with svcd’s umask' },
  serverurl: { why: 'svc programs talk to svcd over its HTTP API (SVC_URL), not supervisord’s XML-RPC', neutral: (v) => v.toUpperCase() === 'AUTO' },
  stdout_logfile_maxbytes: { why: 'svc rotates every program’s logs by size with the [logs] settings of conf/svc.toml' },
  stdout_logfile_backups: { why: 'svc rotates every program’s logs by size with the [logs] settings of conf/svc.toml' },
  stderr_logfile_maxbytes: { why: 'svc rotates every program’s logs by size with the [logs] settings of conf/svc.toml' },
  stderr_logfile_backups: { why: 'svc rotates every program’s logs by size with the [logs] settings of conf/svc.toml' },
  stdout_capture_maxbytes: { why: 'svc has no capture mode or process communication events', neutral: (v) => v === '0' },
  stderr_capture_maxbytes: { why: 'svc has no capture mode or process communication events', neutral: (v) => v === '0' },
  stdout_events_enabled: { why: 'svc has no event listeners for program output', neutral: (v) => iniBoolean(v) === false },
  stderr_events_enabled: { why: 'svc has no event listeners for program output', neutral: (v) => iniBoolean(v) === false },
  stdout_syslog: { why: 'svc writes program output to files only', neutral: (v) => iniBoolean(v) === false },
  stderr_syslog: { why: 'svc writes program output to files only', neutral: (v) => iniBoolean(v) === false },
};

/**
 * Maps one `[program:x]` to svc programs: one per process (`numprocs`), named by the expanded
 * `process_name`. Every option is expanded (`%(program_name)s`, `%(process_num)02d`, `%(ENV_X)s`,
 * ...) per process, as supervisord does.
 */
export function mapProgram(ctx: ProgramContext): ProgramConfig[] {
  const { section } = ctx;
  const lineOf = (key: string) => section.options.get(key)?.line ?? section.line;
  const fileOf = (key: string) => section.options.get(key)?.file ?? section.file;
  const fail = (key: string, message: string): never => {
    throw invalid(`${fileOf(key)}:${lineOf(key)}: [${section.name}] ${key}: ${message}`);
  };
  const common: Expansions = { ...envExpansions(ctx.env), here: ctx.here, program_name: ctx.programName, group_name: ctx.groupName ?? ctx.programName, host_node_name: ctx.hostname };
  const envUsed = new Map<string, Set<string>>();
  const valueOf = (key: string, expansions: Expansions): string | undefined => {
    const option = section.options.get(key);
    if (!option) return undefined;
    try {
      // Continuation lines are whitespace to supervisord's word splitting; keep values on one line.
      const { value, used } = expand(key === 'environment' ? option.value : option.value.replace(/\s*\n\s*/g, ' '), expansions, key);
      for (const name of used.filter((u) => u.startsWith('ENV_'))) envUsed.set(key, (envUsed.get(key) ?? new Set()).add(name.slice(4)));
      return value;
    } catch (err) {
      return fail(key, (err as Error).message.replace(`${key}: `, ''));
    }
  };
  const numprocs = wholeNumber(valueOf('numprocs', common) ?? '1') ?? fail('numprocs', 'must be a whole number');
  const start = wholeNumber(valueOf('numprocs_start', common) ?? '0') ?? fail('numprocs_start', 'must be a whole number');
  if (numprocs < 1) fail('numprocs', 'must be at least 1');
  const processName = section.options.get('process_name')?.value ?? '%(program_name)s';
  if (numprocs > 1 && !processName.includes('%(process_num)')) fail('process_name', '%(process_num) must be present within process_name when numprocs > 1');
  if (!section.options.has('command')) fail('command', 'must be specified');
  const reportName = numprocs > 1 ? ctx.programName : null;
  const out: ProgramConfig[] = [];
  for (let n = start; n < start + numprocs; n++) {
    const expansions: Expansions = { ...common, numprocs, process_num: n };
    const get = (key: string) => valueOf(key, expansions);
    const rawName = get('process_name') ?? ctx.programName;
    const valid = toProgramName(rawName) ?? fail('process_name', `'${rawName}' cannot be made a valid svc name`);
    const name = ctx.names.claim(valid);
    const report = n === start ? ctx.findings : null; // options are the same for every process: report once
    const who = reportName ?? name;
    if (name !== rawName) ctx.findings.approximated(fileOf('process_name'), lineOf('process_name'), name, 'process_name', `'${rawName}' is not a valid svc name (or is taken); renamed to '${name}'`);
    const config: ProgramConfig = { name, command: get('command') ?? '' };
    const bool = (key: string) => {
      const v = get(key);
      if (v === undefined) return undefined;
      return iniBoolean(v) ?? fail(key, `'${v}' is not a boolean`);
    };
    const int = (key: string) => {
      const v = get(key);
      if (v === undefined) return undefined;
      return wholeNumber(v) ?? fail(key, `'${v}' is not a whole number`);
    };
    // supervisord's priority is any integer: a negative one (start first) is common.
    const rawPriority = get('priority');
    if (rawPriority !== undefined) config.priority = /^\s*[-+]?\d+\s*$/.test(rawPriority) ? Number(rawPriority) : fail('priority', `'${rawPriority}' is not an integer`);
    if (bool('autostart') === false) config.autostart = false;
    config.startsecs = int('startsecs') ?? SUPERVISORD_DEFAULTS.startsecs;
    config.retry_limit = int('startretries') ?? SUPERVISORD_DEFAULTS.startretries;
    const autorestart = get('autorestart');
    if (autorestart !== undefined) {
      if (autorestart.toLowerCase() === 'unexpected') config.autorestart = 'unexpected';
      else config.autorestart = String(iniBoolean(autorestart) ?? fail('autorestart', `'${autorestart}' is not true, false or unexpected`)) as 'true' | 'false';
    }
    const exitcodes = get('exitcodes');
    if (exitcodes !== undefined) {
      config.exitcodes = exitcodes.split(',').map((c) => {
        const code = wholeNumber(c);
        return code !== null && code <= 255 ? code : fail('exitcodes', `'${c.trim()}' is not an exit code`);
      });
    }
    const stopsignal = get('stopsignal');
    if (stopsignal !== undefined && signalName(stopsignal) !== 'TERM') {
      report?.unmapped(fileOf('stopsignal'), lineOf('stopsignal'), who, 'stopsignal', `svc stops programs with SIGTERM (then SIGKILL after stopsecs); ${stopsignal} is not sent`);
    }
    const stopsecs = int('stopwaitsecs');
    if (stopsecs !== undefined) config.stopsecs = stopsecs;
    for (const key of ['stopasgroup', 'killasgroup']) {
      if (bool(key) === false) report?.approximated(fileOf(key), lineOf(key), who, key, 'svc always signals the whole process group of a program');
    }
    const user = get('user');
    if (user !== undefined) config.user = /^\d+$/.test(user) ? Number(user) : user;
    const directory = get('directory');
    if (directory !== undefined) config.cwd = resolve(ctx.here, directory);
    logs(config, get, bool, report, who, ctx.here, fileOf, lineOf);
    const env = { ...ctx.globalEnv, ...environment(get('environment'), fail) };
    if (Object.keys(env).length > 0) config.env = env;
    if (ctx.groupName) config.group_name = toProgramName(ctx.groupName) ?? undefined;
    else if (numprocs > 1) config.group_name = toProgramName(ctx.programName) ?? undefined;
    if (config.group_name === undefined) delete config.group_name;
    out.push(config);
  }
  for (const [key, option] of section.options) {
    if (MAPPED.has(key)) continue;
    const known = UNMAPPED[key];
    if (known?.neutral?.(option.value)) continue;
    ctx.findings.unmapped(option.file, option.line, reportName ?? out[0]?.name ?? null, key, known?.why ?? 'not a supervisord program option svc knows');
  }
  if (!section.options.has('directory')) {
    // supervisord does not chdir for such a program: it inherits supervisord's own working directory.
    ctx.findings.approximated(section.file, section.line, reportName ?? out[0]?.name ?? null, 'directory', 'not set: supervisord ran the program in its own working directory (where supervisord was started, or its [supervisord] directory once daemonized), which the import cannot know; svc runs it in SVC_ROOT (svcd’s root folder). Set directory if the program uses relative paths');
  }
  for (const [key, names] of envUsed) {
    ctx.findings.approximated(fileOf(key), lineOf(key), reportName ?? out[0]?.name ?? null, key, `expanded %(ENV_${[...names].join(')s, %(ENV_')})s from the environment of svc import (supervisord read its own environment at start)`);
  }
  return out;
}

function environment(text: string | undefined, fail: (key: string, message: string) => never): Record<string, string> {
  if (text === undefined || text.trim() === '') return {};
  try {
    return parseEnvironment(text);
  } catch (err) {
    return fail('environment', (err as Error).message);
  }
}

function logs(
  config: ProgramConfig,
  get: (key: string) => string | undefined,
  bool: (key: string) => boolean | undefined,
  report: Findings | null,
  who: string,
  here: string,
  fileOf: (key: string) => string,
  lineOf: (key: string) => number,
): void {
  const path = (key: string): string | null => {
    const v = get(key);
    if (v === undefined || v.toUpperCase() === 'AUTO') return null;
    if (v.toUpperCase() === 'NONE' || v.toLowerCase() === 'syslog') {
      report?.unmapped(fileOf(key), lineOf(key), who, key, v.toUpperCase() === 'NONE' ? 'svc always keeps program output (log rotation applies)' : 'svc writes program output to files only');
      return null;
    }
    if (isOwnOutput(v)) {
      report?.unmapped(fileOf(key), lineOf(key), who, key, `${v} is supervisord’s own output (a container log); svc keeps program output in its log files ({log_dir}/{uuid}.out and .err, svc logs)`);
      return null;
    }
    return resolve(here, v);
  };
  const stdout = path('stdout_logfile');
  if (stdout) config.stdout_logfile = stdout;
  if (bool('redirect_stderr')) {
    // Both descriptors open the same file in append mode: the output interleaves as in supervisord.
    if (stdout) config.stderr_logfile = stdout;
    else report?.approximated(fileOf('redirect_stderr'), lineOf('redirect_stderr'), who, 'redirect_stderr', 'without a stdout_logfile, svc keeps stderr in its own default file ({log_dir}/{uuid}.err)');
    if (get('stderr_logfile') !== undefined) report?.unmapped(fileOf('stderr_logfile'), lineOf('stderr_logfile'), who, 'stderr_logfile', 'supervisord ignores it when redirect_stderr is true');
    return;
  }
  const stderr = path('stderr_logfile');
  if (stderr) config.stderr_logfile = stderr;
}

