import { splitCommand } from '../../../state/command-line.js';
import { withDefaults, type ProgramConfig } from '../../../state/program.js';
import { resolveArgv, resolveProcess } from '../process.js';
import type { ExportContext, ExportFinding } from '../types.js';
import { healthService } from './checks.js';
import { literalConfigString, runtimeReferenceMessage, runtimeReferences } from './interpolation.js';
import { ns, type NomadTask, type NomadTaskGroup } from './model.js';
import { restartPolicy } from './restart.js';

/**
 * One task group per program: its task (raw_exec: the command run in its cwd, env, user, kill
 * timeout and signal, resources), hooks as prestart/poststop lifecycle tasks, the health check as
 * a service, and the restart policy. Cron programs get the batch form (no restarts).
 */
export function programGroup(config: ProgramConfig, ctx: ExportContext, report: (f: ExportFinding) => void): NomadTaskGroup {
  const c = withDefaults(config);
  const note = (field: string, kind: ExportFinding['kind'], message: string) => report({ program: c.name, field, kind, message });
  const proc = resolveProcess(config, ctx, report);
  const [command, ...args] = inDirectory(proc.cwd, proc.argv);
  const env = { ...(config.env ?? {}), SVC_PROGRAM_NAME: c.name };
  for (const [key, value] of Object.entries(config.env ?? {})) {
    const refs = runtimeReferences([value]);
    if (refs.length > 0) note(`env.${key}`, 'approximated', runtimeReferenceMessage(refs));
  }
  const task: NomadTask = {
    Name: c.name,
    Driver: 'raw_exec',
    ...(config.user !== undefined ? { User: String(config.user) } : {}),
    Config: { command, args },
    Env: env,
    KillTimeout: ns(c.stopsecs),
    KillSignal: 'SIGTERM',
  };
  const resources = resourcesOf(config, note);
  if (resources) task.Resources = resources;
  const health = config.cron === undefined ? healthService(config, report) : null;
  if (health) task.Services = [health.service];
  const checkRefs = runtimeReferences((health?.service.Checks ?? []).flatMap((ch) => [ch.Command ?? '', ...(ch.Args ?? [])]));
  if (checkRefs.length > 0) note('health_check.command', 'approximated', runtimeReferenceMessage(checkRefs));
  const hookTasks = hooks(config, task, proc.cwd, ctx, note);
  const group: NomadTaskGroup = {
    Name: c.name,
    Count: config.cron === undefined && !c.autostart ? 0 : 1,
    ...(config.cron === undefined
      ? restartPolicy(config, report)
      : { RestartPolicy: { Attempts: 0, Interval: ns(60), Delay: ns(c.backoff_secs), Mode: 'fail' as const }, ReschedulePolicy: { Attempts: 0, Unlimited: false } }),
    ...(health?.network ? { Networks: [health.network] } : {}),
    ...(config.group_name ? { Meta: { svc_group_name: config.group_name } } : {}),
    Tasks: [...hookTasks.pre, task, ...hookTasks.post],
  };
  unexpressible(config, proc, note);
  return group;
}

/**
 * raw_exec starts tasks in their task directory and has no working-directory option in the Nomad
 * versions in use, so the command runs through `sh -c 'cd "$1" && shift && exec "$@"'`: exec keeps
 * the program as the task's process (signals reach it) and the arguments pass untouched (escaped
 * for the client's HCL2 evaluation of the driver config).
 */
function inDirectory(cwd: string, argv: string[]): string[] {
  return ['/bin/sh', '-c', 'cd "$1" && shift && exec "$@"', 'sh', cwd, ...argv].map(literalConfigString);
}

function resourcesOf(config: ProgramConfig, note: (field: string, kind: ExportFinding['kind'], message: string) => void): NomadTask['Resources'] | null {
  const limits = config.resource_limits;
  if (!limits) return null;
  const out: NonNullable<NomadTask['Resources']> = {};
  if (limits.memory_limit !== undefined) out.MemoryMB = Math.max(10, Math.ceil(limits.memory_limit / 1048576));
  if (limits.cpu_quota !== undefined) {
    if (limits.cpu_quota % 100 === 0) out.Cores = limits.cpu_quota / 100;
    else note('resource_limits.cpu_quota', 'unexpressible', `Nomad reserves CPU in MHz or whole cores; a ${limits.cpu_quota} % quota is neither (Nomad's default cpu applies)`);
  }
  return Object.keys(out).length > 0 ? out : null;
}

/** pre_start and post_stop as lifecycle tasks of the group (run once per allocation). */
function hooks(config: ProgramConfig, main: NomadTask, cwd: string, ctx: ExportContext, note: (field: string, kind: ExportFinding['kind'], message: string) => void): { pre: NomadTask[]; post: NomadTask[] } {
  const out = { pre: [] as NomadTask[], post: [] as NomadTask[] };
  for (const [key, hook] of [['pre_start', 'prestart'], ['post_stop', 'poststop']] as const) {
    const line = config.hooks?.[key];
    if (!line) continue;
    let words: string[];
    try {
      words = splitCommand(line);
    } catch (err) {
      note(`hooks.${key}`, 'unexpressible', (err as Error).message);
      continue;
    }
    const [command, ...args] = inDirectory(cwd, resolveArgv(words, cwd, ctx, (m) => note(`hooks.${key}`, 'approximated', m)));
    const task: NomadTask = { ...main, Name: `${main.Name}-${key.replace('_', '-')}`, Config: { command, args }, Lifecycle: { Hook: hook, Sidecar: false } };
    delete task.Services;
    delete task.Resources;
    (hook === 'prestart' ? out.pre : out.post).push(task);
    const when = key === 'pre_start' ? 'not before every restart' : 'not after every exit, and without SVC_EXIT_*';
    note(`hooks.${key}`, 'approximated', `a ${hook} task runs once per allocation, ${when}`);
  }
  return out;
}

function unexpressible(config: ProgramConfig, proc: ReturnType<typeof resolveProcess>, note: (field: string, kind: ExportFinding['kind'], message: string) => void): void {
  if (config.depends_on?.length) note('depends_on', 'unexpressible', 'Nomad does not order groups of a job (run dependencies as prestart tasks of the same group, or as separate jobs)');
  if (config.priority !== undefined) note('priority', 'unexpressible', 'Nomad has no start order between groups');
  if (config.group !== undefined) note('group', 'unexpressible', 'raw_exec runs tasks with the user’s primary group');
  if (proc.envFile) note('env_file', 'unexpressible', 'raw_exec cannot read a host env file (a template block with env = true reads files of the task directory)');
  if (proc.stdout || proc.stderr) note('stdout_logfile', 'unexpressible', 'Nomad keeps task logs in the allocation directory (nomad alloc logs)');
  if (config.artifact) note('artifact', 'unexpressible', 'an artifact block downloads into the task directory; svc’s OTA swap and rollback have no equivalent');
  if (config.startsecs !== undefined && config.retry_limit === undefined) note('startsecs', 'unexpressible', 'Nomad has no stable-run time');
  if (config.cron !== undefined) {
    const c = withDefaults(config);
    if (config.kill_after_secs !== undefined) note('kill_after_secs', 'unexpressible', 'Nomad has no runtime cap for batch tasks');
    if (config.jitter_sec) note('jitter_sec', 'unexpressible', 'periodic jobs launch at the slot');
    if (c.catchup !== 'skip') note('catchup', 'unexpressible', 'periodic jobs do not launch missed slots');
    if (c.max_concurrent > 1 && c.on_overlap === 'skip') note('max_concurrent', 'approximated', 'without prohibit_overlap Nomad launches every slot, with no cap on overlapping runs');
    if (c.on_overlap === 'queue' || c.on_overlap === 'kill') note('on_overlap', 'unexpressible', `prohibit_overlap skips a launch while one runs; '${c.on_overlap}' has no equivalent`);
  }
}
