import { basename, extname, isAbsolute, resolve } from 'node:path';
import { invalid, SvcError } from '../../../state/errors.js';
import type { ProgramConfig } from '../../../state/program.js';
import type { Findings } from '../report.js';
import { NameRegistry, toProgramName } from '../common/names.js';
import { bytes, ceilSeconds, isOwnOutput, millis, show, wholeNumber } from '../common/values.js';
import { pm2Command } from './command.js';
import { isNeutral, PM2_UNMAPPED } from './unmapped.js';

/** What mapping one app needs besides the app itself. */
export interface Pm2AppContext {
  /** The file label for messages and the report. */
  file: string;
  /** Absolute folder of the ecosystem file: PM2 resolves a relative or missing `cwd` from it. */
  dir: string;
  /** Messages about this app start with this (`apps[1] (name=api)`). */
  label: string;
  /** Line of an app key in the file. */
  lineOf: (key: string) => number;
  findings: Findings;
  names: NameRegistry;
  /** `--env NAME`: the env_NAME block to merge over env. */
  envName?: string;
  exists: (path: string) => boolean;
  /** A dump: log paths in PM2's own log folder are PM2's defaults, not a choice of the user. */
  dump?: boolean;
}

/** Keys this mapper reads; every other key of the app is reported. */
const MAPPED = new Set([
  'name', 'script', 'args', 'interpreter', 'exec_interpreter', 'interpreter_args', 'node_args', 'cwd', 'env',
  'instances', 'exec_mode', 'instance_var', 'increment_var', 'autorestart', 'autostart', 'stop_exit_codes',
  'max_restarts', 'min_uptime', 'restart_delay', 'exp_backoff_restart_delay', 'kill_timeout', 'max_memory_restart',
  'cron_restart', 'out_file', 'error_file', 'err_file', 'merge_logs', 'combine_logs', 'user', 'uid', 'gid', 'namespace',
]);

/** PM2's defaults that differ from svc's, written out so the program behaves as it did under PM2. */
const PM2_DEFAULTS = { max_restarts: 16, min_uptime_ms: 1000, kill_timeout_ms: 1600 };

/**
 * Maps one PM2 app (ecosystem entry, or a dump entry already put in that shape) to svc programs:
 * one, or one per instance. Every key is either mapped, or reported with its line.
 */
export function mapPm2App(app: Record<string, unknown>, ctx: Pm2AppContext): ProgramConfig[] {
  const fail = (key: string, message: string): never => {
    throw invalid(`${ctx.file}:${ctx.lineOf(key)}: ${ctx.label}: ${key}: ${message}`);
  };
  if (typeof app.script !== 'string' || app.script === '') return fail('script', 'is required (the file or command PM2 starts)');
  const rawName = typeof app.name === 'string' && app.name !== '' ? app.name : basename(app.script, extname(app.script));
  const base = toProgramName(rawName) ?? fail('name', `'${rawName}' cannot be made a valid svc name`);
  if (base !== rawName) ctx.findings.approximated(ctx.file, ctx.lineOf('name'), base, 'name', `'${rawName}' is not a valid svc name; renamed to '${base}'`);
  const report = (key: string, kind: 'unmapped' | 'approximated', message: string) => {
    if (kind === 'unmapped') ctx.findings.unmapped(ctx.file, ctx.lineOf(key), base, key, message);
    else ctx.findings.approximated(ctx.file, ctx.lineOf(key), base, key, message);
  };

  const cwd = typeof app.cwd === 'string' && app.cwd !== '' ? resolve(ctx.dir, app.cwd) : ctx.dir;
  let command: ReturnType<typeof pm2Command>;
  try {
    command = pm2Command(app, ctx.exists, cwd);
  } catch (err) {
    if (!(err instanceof SvcError)) throw err;
    const [field = 'args', ...rest] = err.message.split(': ');
    return fail(field, rest.join(': '));
    throw err;
  }
  if (command.interpreter === null && (app.node_args !== undefined || app.interpreter_args !== undefined)) {
    report(app.node_args !== undefined ? 'node_args' : 'interpreter_args', 'unmapped', 'the script runs without an interpreter, so there is nothing to pass them to');
  }
  const config: ProgramConfig = { name: base, command: command.command, ...(command.args.length > 0 ? { args: command.args } : {}), cwd };

  const env = mapEnv(app, ctx, report);
  restartPolicy(app, config, report);
  identity(app, config);
  if (typeof app.namespace === 'string' && app.namespace !== '' && app.namespace !== 'default') {
    const group = toProgramName(app.namespace);
    if (group) config.group_name = group;
    else report('namespace', 'unmapped', `'${app.namespace}' cannot be made a valid svc group name`);
  }
  const memory = app.max_memory_restart === undefined ? null : bytes(app.max_memory_restart);
  if (app.max_memory_restart !== undefined) {
    if (memory === null || memory < 4096) report('max_memory_restart', 'unmapped', `'${show(app.max_memory_restart)}' is not a size of at least 4 KiB`);
    else {
      config.resource_limits = { memory_limit: memory };
      report('max_memory_restart', 'approximated', 'mapped to resource_limits.memory_limit: a hard cgroup limit (isolation plugin) that OOM-kills the program at once, where PM2 restarts it gracefully when its 30 s check sees the limit passed');
    }
  }
  for (const key of Object.keys(app)) {
    if (MAPPED.has(key) || /^env_./.test(key)) continue;
    if (isNeutral(key, app[key])) continue;
    report(key, 'unmapped', PM2_UNMAPPED[key] ?? 'not a PM2 option svc knows');
  }
  return instances(app, config, env, ctx, report);
}

type Report = (key: string, kind: 'unmapped' | 'approximated', message: string) => void;

function mapEnv(app: Record<string, unknown>, ctx: Pm2AppContext, report: Report): Record<string, string> {
  const env: Record<string, string> = {};
  const merge = (block: unknown, key: string) => {
    if (block === undefined || block === null) return;
    if (typeof block !== 'object' || Array.isArray(block)) return report(key, 'unmapped', 'must be an object of variables');
    for (const [name, value] of Object.entries(block as Record<string, unknown>)) {
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') env[name] = String(value);
      else report(`${key}.${name}`, 'unmapped', `a ${value === null ? 'null' : typeof value} is not an environment value`);
    }
  };
  merge(app.env, 'env');
  for (const key of Object.keys(app).filter((k) => /^env_./.test(k))) {
    if (key === `env_${ctx.envName}`) merge(app[key], key);
    else report(key, 'unmapped', `not applied: PM2 applies it with --env ${key.slice(4)}; import with \`svc import pm2 FILE --env ${key.slice(4)}\``);
  }
  return env;
}

function restartPolicy(app: Record<string, unknown>, config: ProgramConfig, report: Report): void {
  const codes = app.stop_exit_codes === undefined ? null : ([] as unknown[]).concat(app.stop_exit_codes).map(wholeNumber);
  if (codes && codes.some((c) => c === null || c > 255)) report('stop_exit_codes', 'unmapped', 'must be exit codes 0-255');
  if (typeof app.cron_restart === 'string' && app.cron_restart !== '') {
    if (app.autorestart === false) {
      // PM2's documented way to run a job on a schedule: cron_restart with autorestart false.
      config.cron = app.cron_restart;
      config.on_overlap = 'kill';
      report('cron_restart', 'approximated', 'a cron program: it runs at each slot (a run still going is killed, as PM2 restarts it); PM2 also started it once when the file was started');
      if (codes && !codes.some((c) => c === null)) config.exitcodes = codes as number[];
      config.stopsecs = ceilSeconds(millis(app.kill_timeout) ?? PM2_DEFAULTS.kill_timeout_ms);
      return;
    }
    report('cron_restart', 'unmapped', `svc cannot restart a long-running program on a schedule; a cron program running \`svc restart ${config.name}\` does it`);
  }
  if (app.autorestart === false) config.autorestart = 'false';
  else if (codes && !codes.some((c) => c === null)) {
    config.autorestart = 'unexpected';
    config.exitcodes = codes as number[];
  } else config.autorestart = 'true';
  const max = app.max_restarts === undefined ? PM2_DEFAULTS.max_restarts : wholeNumber(app.max_restarts);
  if (max === null) report('max_restarts', 'unmapped', 'must be a whole number');
  else config.retry_limit = max;
  const uptime = app.min_uptime === undefined ? PM2_DEFAULTS.min_uptime_ms : millis(app.min_uptime);
  if (uptime === null) report('min_uptime', 'unmapped', 'must be milliseconds or a duration like 10s');
  else config.startsecs = ceilSeconds(uptime);
  const kill = app.kill_timeout === undefined ? PM2_DEFAULTS.kill_timeout_ms : millis(app.kill_timeout);
  if (kill === null) report('kill_timeout', 'unmapped', 'must be milliseconds');
  else config.stopsecs = ceilSeconds(kill);
  const exp = app.exp_backoff_restart_delay === undefined ? null : millis(app.exp_backoff_restart_delay);
  if (exp !== null && exp > 0) {
    // PM2 grows the delay 1.5x per restart up to 15 s; svc doubles it up to backoff_max_secs.
    config.backoff_secs = exp / 1000;
    config.backoff_max_secs = 15;
    if (app.restart_delay !== undefined) report('restart_delay', 'unmapped', 'PM2 ignores it when exp_backoff_restart_delay is set');
    return;
  }
  const delay = app.restart_delay === undefined ? 0 : millis(app.restart_delay);
  if (delay === null) return report('restart_delay', 'unmapped', 'must be milliseconds');
  // A fixed delay is a backoff whose first step is also its cap.
  config.backoff_secs = delay / 1000;
  if (delay > 0) config.backoff_max_secs = delay / 1000;
}

function identity(app: Record<string, unknown>, config: ProgramConfig): void {
  const user = app.user ?? app.uid;
  if (typeof user === 'string' || typeof user === 'number') config.user = user;
  if (typeof app.gid === 'string' || typeof app.gid === 'number') config.group = app.gid;
  if (typeof app.autostart === 'boolean' && !app.autostart) config.autostart = false;
}

/** One program, or one per instance (`name-0`, `name-1`, ...) in an svc group named after the app. */
function instances(app: Record<string, unknown>, config: ProgramConfig, env: Record<string, string>, ctx: Pm2AppContext, report: Report): ProgramConfig[] {
  let count = app.instances === undefined ? 1 : wholeNumber(app.instances);
  if (count === null || count === 0) {
    report('instances', 'approximated', `'${show(app.instances)}' depends on the CPU count of the machine; imported as 1 instance (copy the service for more)`);
    count = 1;
  }
  const cluster = app.exec_mode === 'cluster' || app.exec_mode === 'cluster_mode';
  if (cluster) {
    report('exec_mode', 'approximated', 'svc runs each instance as its own process (fork mode): instances do not share a listening socket, so give each its own port (increment_var) or use SO_REUSEPORT');
  }
  const instanceVar = typeof app.instance_var === 'string' && app.instance_var !== '' ? app.instance_var : 'NODE_APP_INSTANCE';
  const increment = typeof app.increment_var === 'string' && app.increment_var !== '' ? app.increment_var : null;
  const sharedLogs = app.merge_logs === true || app.combine_logs === true;
  const out: ProgramConfig[] = [];
  for (let i = 0; i < count; i++) {
    const name = ctx.names.claim(count > 1 ? `${config.name.slice(0, 60)}-${i}` : config.name);
    const instanceEnv: Record<string, string> = { ...env, [instanceVar]: String(i) };
    if (increment) instanceEnv[increment] = String((Number(env[increment]) || 0) + i);
    const one: ProgramConfig = { ...config, name, env: instanceEnv };
    if (count > 1) one.group_name ??= config.name;
    const logs = { stdout_logfile: app.out_file, stderr_logfile: app.error_file ?? app.err_file };
    for (const [field, value] of Object.entries(logs) as [keyof typeof logs, unknown][]) {
      if (typeof value !== 'string' || value === '') continue;
      const key = field === 'stdout_logfile' ? 'out_file' : app.error_file !== undefined ? 'error_file' : 'err_file';
      if (value === '/dev/null' || value.toUpperCase() === 'NULL') {
        if (i === 0) report(key, 'unmapped', 'svc always keeps program output (log rotation applies)');
        continue;
      }
      if (isOwnOutput(value)) {
        if (i === 0) report(key, 'unmapped', `${value} is PM2’s own output (pm2-runtime in a container); svc keeps program output in its log files ({log_dir}/{uuid}.out and .err, svc logs)`);
        continue;
      }
      const path = isAbsolute(value) ? value : resolve(one.cwd ?? ctx.dir, value);
      if (ctx.dump && /\/\.pm2\/logs\//.test(path)) {
        if (i === 0) report(key, 'approximated', `PM2's default log file; svc writes its own ({log_dir}/{uuid}.${field === 'stdout_logfile' ? 'out' : 'err'})`);
        continue;
      }
      // PM2 gives each instance its own file (name-<id>.log) unless merge_logs is set.
      one[field] = count > 1 && !sharedLogs ? path.replace(/(\.[^./]*)?$/, `-${i}$1`) : path;
    }
    out.push(one);
  }
  return out;
}
