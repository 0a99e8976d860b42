import { isAbsolute, resolve } from 'node:path';
import type { ProgramConfig } from '../../../state/program.js';
import { commandFields } from '../common/command.js';
import { toProgramName } from '../common/names.js';
import { show } from '../common/values.js';
import { expandedAtLoad, pcReferences, pcValues, replicaLogPath, unescapeDollars, type PcVariable } from './pc-env.js';
import { mapProbe } from './probe.js';

type Report = (field: string, kind: 'unmapped' | 'approximated', message: string) => void;

export interface ProcessContext {
  /** The process key in `processes`. */
  key: string;
  /** svc names of this process (one, or one per replica). */
  names: string[];
  /** svc names of every process, by key (for depends_on). */
  namesOf: Map<string, string[]>;
  /** Raw processes, to see whether a dependency has a readiness probe. */
  processes: Record<string, unknown>;
  dir: string;
  shell: readonly string[];
  globalEnv: Record<string, string>;
  /** Absolute path of the `.env` next to the file, when there is one. */
  dotenv: string | null;
  vars: Record<string, unknown>;
  /** Whether process-compose expands `$VAR` in the file (no `disable_env_expansion`); `$$` is then its escape for `$`. */
  expandOn: boolean;
  /** Expands `$VAR` in values svc stores as they are (reports what it used). */
  text: (value: string, field: string) => string;
  report: Report;
  fail: (field: string, message: string) => never;
}

const MAPPED = new Set(['command', 'entrypoint', 'working_dir', 'environment', 'depends_on', 'availability', 'readiness_probe', 'liveness_probe', 'shutdown', 'disabled', 'is_disabled', 'is_dotenv_disabled', 'namespace', 'replicas', 'log_location', 'vars']);

const UNMAPPED: Record<string, string> = {
  is_daemon: 'svc supervises processes that stay in the foreground; a command that daemonizes exits at once',
  description: 'svc programs have no description field',
  is_tty: 'svc gives programs files for stdout and stderr, never a terminal',
  is_elevated: 'svc does not run sudo; run svcd as root and set user instead',
  launch_timeout_seconds: 'svc has no launch timeout for daemons',
  ready_log_line: 'svc has no readiness by log line; use a readiness probe (health_check)',
  log_configuration: 'svc writes program output as it is (no per-process log format or rotation settings)',
  is_foreground: 'svc has no foreground (interactive) programs',
  env_cmds: 'svc does not run commands to compute environment variables',
};

/**
 * Whether process-compose leaves the process stopped: `is_disabled` ("true" or "false", a string
 * so that an override file can enable a process) wins over the boolean `disabled` when it is set.
 */
function disabled(proc: Record<string, unknown>, fail: ProcessContext['fail']): boolean {
  const flag = proc.is_disabled;
  if (flag === undefined || flag === null || flag === '') return proc.disabled === true;
  if (flag === 'true' || flag === true) return true;
  if (flag === 'false' || flag === false) return false;
  return fail('is_disabled', `must be "true" or "false", not ${JSON.stringify(flag)}`);
}

/** Maps one process (with its replicas) to svc programs. */
export function mapProcess(proc: Record<string, unknown>, ctx: ProcessContext): ProgramConfig[] {
  const { report, fail } = ctx;
  const vars = { ...ctx.vars, ...((proc.vars as Record<string, unknown> | undefined) ?? {}) };
  const render = (s: string, field: string) => {
    let out = s;
    for (const m of s.matchAll(/\{\{-?\s*\.([A-Za-z_][A-Za-z0-9_]*)\s*-?\}\}/g)) {
      if (!(m[1] in vars)) return fail(field, `template variable .${m[1]} is not defined in vars`);
      out = out.replace(m[0], String(vars[m[1]]));
    }
    if (/\{\{/.test(out)) report(field, 'unmapped', 'Go template expressions other than {{.NAME}} are not rendered; kept as written');
    return out;
  };
  const command = commandOf(proc, ctx, render);
  const config: ProgramConfig = { name: ctx.names[0] ?? ctx.key, ...command };
  if (typeof proc.working_dir === 'string' && proc.working_dir !== '') {
    const dir = ctx.text(proc.working_dir, 'working_dir');
    config.cwd = isAbsolute(dir) ? dir : resolve(ctx.dir, dir);
  } else config.cwd = ctx.dir; // process-compose runs processes in its own working directory
  // process-compose passes the .env's variables to every process (under its environment lists).
  if (ctx.dotenv && proc.is_dotenv_disabled !== true) config.env_file = ctx.dotenv;
  const env = { ...ctx.globalEnv, ...environmentList(proc.environment, 'environment', ctx) };
  if (Object.keys(env).length > 0) config.env = env;
  if (disabled(proc, fail)) config.autostart = false;
  if (typeof proc.namespace === 'string' && proc.namespace !== '' && proc.namespace !== 'default') {
    const group = toProgramName(proc.namespace);
    if (group) config.group_name = group;
    else report('namespace', 'unmapped', `'${proc.namespace}' cannot be made a valid svc group name`);
  }
  availability(proc.availability, config, report, fail);
  shutdown(proc.shutdown, config, report);
  probes(proc, config, ctx);
  const deps = dependencies(proc.depends_on, ctx);
  if (deps.length > 0) config.depends_on = deps;
  if (typeof proc.log_location === 'string' && proc.log_location !== '') {
    const path = ctx.text(proc.log_location, 'log_location');
    config.stdout_logfile = isAbsolute(path) ? path : resolve(ctx.dir, path);
    config.stderr_logfile = config.stdout_logfile; // process-compose writes both streams to one file
  }
  for (const key of Object.keys(proc)) {
    if (MAPPED.has(key)) continue;
    if (proc[key] === false || proc[key] === undefined || proc[key] === null || proc[key] === '') continue;
    report(key, 'unmapped', UNMAPPED[key] ?? 'not a process-compose option svc knows');
  }
  const refs = pcReferences([config.command, ...(config.args ?? [])]);
  reportExpandedAtLoad(proc, ctx);
  return ctx.names.map((name, i) => replicaConfig(config, ctx, i, refs));
}

/**
 * One replica (or the single process): PC_REPLICA_NUM for every replica, and the PC_* variables
 * its command uses, as process-compose sets them (a value the file sets wins, as there); its own
 * log file.
 */
function replicaConfig(config: ProgramConfig, ctx: ProcessContext, replica: number, refs: PcVariable[]): ProgramConfig {
  const many = ctx.names.length > 1;
  const out: ProgramConfig = { ...config, name: ctx.names[replica] ?? config.name };
  if (many) out.group_name = config.group_name ?? toProgramName(ctx.key) ?? undefined;
  const values = pcValues(ctx.key, replica);
  const env = { ...(config.env ?? {}) };
  for (const name of new Set<PcVariable>([...(many ? (['PC_REPLICA_NUM'] as const) : []), ...refs])) env[name] ??= values[name];
  if (Object.keys(env).length > 0) out.env = env;
  if (config.stdout_logfile !== undefined) {
    out.stdout_logfile = replicaLogPath(config.stdout_logfile, replica, ctx.names.length);
    out.stderr_logfile = out.stdout_logfile;
  }
  return out;
}

/** `$PC_X` in a command without process-compose's `$$` escape: it had the value of process-compose's own environment there. */
function reportExpandedAtLoad(proc: Record<string, unknown>, ctx: ProcessContext): void {
  if (!ctx.expandOn) return;
  for (const field of ['command', 'entrypoint'] as const) {
    const raw = proc[field];
    const names = expandedAtLoad(Array.isArray(raw) ? raw.map(String).join(' ') : typeof raw === 'string' ? raw : '');
    if (names.length === 0) continue;
    const list = names.map((n) => '$' + n).join(', ');
    const escaped = names.map((n) => '$$' + n).join(', ');
    ctx.report(field, 'approximated', `process-compose expands ${list} when it loads the file, before it gives the process these variables, so it ran the command with its own environment's value (empty unless set where it ran); svc sets them in env and the shell expands them at start (${escaped} would mean this in process-compose too)`);
  }
}

function commandOf(proc: Record<string, unknown>, ctx: ProcessContext, render: (s: string, field: string) => string): { command: string; args?: string[] } {
  if (Array.isArray(proc.entrypoint) && proc.entrypoint.length > 0) {
    const [command, ...args] = proc.entrypoint.map((w) => unescapeDollars(render(String(w), 'entrypoint'), ctx.expandOn));
    if (typeof proc.command === 'string') args.push(unescapeDollars(render(proc.command, 'command'), ctx.expandOn));
    return { command, ...(args.length > 0 ? { args } : {}) };
  }
  if (typeof proc.command !== 'string' || proc.command.trim() === '') return ctx.fail('command', 'is required');
  return commandFields(unescapeDollars(render(proc.command, 'command'), ctx.expandOn), ctx.shell);
}

/** process-compose's `environment` list of `NAME=value` strings. */
export function environmentList(value: unknown, field: string, ctx: Pick<ProcessContext, 'text' | 'fail'>): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (!Array.isArray(value)) return ctx.fail(field, 'must be a list of NAME=value');
  const env: Record<string, string> = {};
  for (const item of value) {
    const s = String(item);
    const eq = s.indexOf('=');
    if (eq <= 0) return ctx.fail(field, `'${s}' is not NAME=value`);
    env[s.slice(0, eq)] = ctx.text(s.slice(eq + 1), field);
  }
  return env;
}

function availability(value: unknown, config: ProgramConfig, report: Report, fail: (field: string, message: string) => never): void {
  const a = (value ?? {}) as Record<string, unknown>;
  const restart = typeof a.restart === 'string' ? a.restart : 'no';
  switch (restart) {
    case 'always':
      config.autorestart = 'true';
      break;
    case 'on_failure':
      config.autorestart = 'unexpected';
      break;
    case 'exit_on_failure':
      config.autorestart = 'false';
      report('availability.restart', 'unmapped', 'svc never stops other programs (or itself) when one fails; the program is not restarted');
      break;
    case 'no':
      config.autorestart = 'false'; // process-compose's default; svc's is `unexpected`
      break;
    default:
      fail('availability.restart', `'${restart}' is not always, on_failure, exit_on_failure or no`);
  }
  if (config.autorestart !== 'false') {
    // A fixed delay is a backoff whose first step is also its cap.
    const backoff = typeof a.backoff_seconds === 'number' && a.backoff_seconds >= 0 ? a.backoff_seconds : 1;
    config.backoff_secs = backoff;
    config.backoff_max_secs = backoff;
  }
  if (typeof a.max_restarts === 'number' && a.max_restarts > 0) {
    config.retry_limit = a.max_restarts;
    report('availability.max_restarts', 'approximated', 'svc resets the count after startsecs (10 s) of stable run; process-compose counts every restart');
  }
  for (const key of ['exit_on_end', 'exit_on_skipped']) {
    if (a[key] === true) report(`availability.${key}`, 'unmapped', 'svc never stops other programs (or itself) when one ends');
  }
  for (const key of Object.keys(a)) {
    if (!['restart', 'backoff_seconds', 'max_restarts', 'exit_on_end', 'exit_on_skipped'].includes(key)) report(`availability.${key}`, 'unmapped', 'not an availability option svc knows');
  }
}

function shutdown(value: unknown, config: ProgramConfig, report: Report): void {
  if (value === undefined || value === null) return;
  const s = value as Record<string, unknown>;
  if (typeof s.timeout_seconds === 'number' && s.timeout_seconds >= 0) config.stopsecs = Math.ceil(s.timeout_seconds);
  if (s.signal !== undefined && s.signal !== 15) report('shutdown.signal', 'unmapped', `svc stops programs with SIGTERM (15), then SIGKILL after stopsecs; signal ${show(s.signal)} is not sent`);
  if (typeof s.command === 'string') report('shutdown.command', 'unmapped', 'svc stops programs with a signal; hooks.post_stop runs after the exit, not instead of the signal');
  if (s.parent_only === true) report('shutdown.parent_only', 'unmapped', 'svc always signals the whole process group of a program');
  for (const key of Object.keys(s)) {
    if (!['timeout_seconds', 'signal', 'command', 'parent_only'].includes(key)) report(`shutdown.${key}`, 'unmapped', 'not a shutdown option svc knows');
  }
}

function probes(proc: Record<string, unknown>, config: ProgramConfig, ctx: ProcessContext): void {
  const text = (s: string) => ctx.text(s, 'probe');
  const ready = proc.readiness_probe === undefined ? null : mapProbe(proc.readiness_probe, 'readiness_probe', ctx.shell, proc.working_dir as string | undefined, text, ctx.report, ctx.fail);
  const live = proc.liveness_probe === undefined ? null : mapProbe(proc.liveness_probe, 'liveness_probe', ctx.shell, proc.working_dir as string | undefined, text, ctx.report, ctx.fail);
  if (ready && live) {
    const same = ready.type === live.type && ready.url === live.url && ready.command === live.command && JSON.stringify(ready.args) === JSON.stringify(live.args);
    if (same) {
      config.health_check = { ...ready, restart_on_failure: true };
      const timing = ['start_period_secs', 'interval_secs', 'timeout_secs', 'success_threshold', 'failure_threshold'] as const;
      const differ = timing.filter((k) => ready[k] !== live[k]);
      if (differ.length > 0) ctx.report('liveness_probe', 'approximated', `same endpoint as the readiness probe: one svc health check restarts on failure, with the readiness probe's ${differ.join(', ')}`);
    }
    else {
      config.health_check = ready;
      ctx.report('liveness_probe', 'unmapped', 'svc has one health check per program; the readiness probe is kept (it gates dependants)');
    }
  } else if (ready) config.health_check = ready;
  else if (live) config.health_check = { ...live, restart_on_failure: true };
}

function dependencies(value: unknown, ctx: ProcessContext): string[] {
  if (value === undefined || value === null) return [];
  if (typeof value !== 'object' || Array.isArray(value)) return ctx.fail('depends_on', 'must be a mapping of process name to {condition}');
  const out: string[] = [];
  for (const [dep, spec] of Object.entries(value as Record<string, unknown>)) {
    const names = ctx.namesOf.get(dep);
    if (!names) return ctx.fail(`depends_on.${dep}`, `no process '${dep}' in processes`);
    const condition = (spec as { condition?: unknown } | null)?.condition ?? 'process_started';
    const hasReadiness = typeof ctx.processes[dep] === 'object' && ctx.processes[dep] !== null && 'readiness_probe' in (ctx.processes[dep]);
    switch (condition) {
      case 'process_started':
        if (hasReadiness) ctx.report(`depends_on.${dep}`, 'approximated', `${dep} has a readiness probe, so svc waits for it to be Healthy, not only started`);
        out.push(...names);
        break;
      case 'process_healthy':
        if (!hasReadiness) ctx.report(`depends_on.${dep}`, 'approximated', `${dep} has no readiness probe; svc waits for it to be Running`);
        out.push(...names);
        break;
      case 'process_log_ready':
        ctx.report(`depends_on.${dep}`, 'approximated', 'svc waits for the dependency to be Running, not for its ready_log_line');
        out.push(...names);
        break;
      case 'process_completed':
      case 'process_completed_successfully':
        ctx.report(`depends_on.${dep}`, 'unmapped', `svc has no "after it exited" dependency (a dependency must be up); run ${dep} from hooks.pre_start instead`);
        break;
      default:
        return ctx.fail(`depends_on.${dep}.condition`, `'${show(condition)}' is not a process-compose condition`);
    }
  }
  return [...new Set(out)];
}
