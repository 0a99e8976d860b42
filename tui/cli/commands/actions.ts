import type { Command } from 'commander';
import type { ActionOutcome, BatchActionType, BatchAction, BatchRequest } from '../../../api/wire.js';
import { routes } from '../../client/routes.js';
import type { CliContext } from '../context.js';
import { CliError } from '../errors.js';
import { table } from '../format.js';
import { noProgramInGroups, resolveNamed } from '../programs.js';
import { NAME_A_PROGRAM, parseSelectors } from '../selectors.js';
import { problemText, watchStarted, WATCH_MS, withProblem, type StartProblem } from '../spawn-check.js';
import { SIGNALS, isSignalKey } from '../../../state/signals.js';

interface Flags {
  all?: boolean;
  group?: string;
  /** start and restart: false with --no-wait (no watch of the started processes). */
  wait?: boolean;
}

/** Actions whose started processes are watched for an early exit (as `svc add` does). */
const WATCHED: readonly BatchActionType[] = ['Start', 'Restart'];
/** Statuses of a program whose process ended before the action answered. */
const ENDED = new Set(['Backoff', 'Fatal', 'Exited']);

/**
 * start, stop, restart, reload, signal, rm: programs by name or id, `all`, `GROUP:*`, `GROUP:NAME`,
 * or the flags --all and --group NAME.
 */
export function registerActions(program: Command, ctx: CliContext): void {
  const selectable = (cmd: Command) => cmd.option('-a, --all', 'every program (as the word all)').option('-g, --group <name>', 'every program in this group (group_name; as GROUP:*)');

  const run = async (words: string[], flags: Flags, type: BatchActionType, payload: BatchAction['payload']) => {
    if (words.length === 0 && !flags.all && !flags.group) throw new CliError(NAME_A_PROGRAM, 2);
    const sel = parseSelectors(words);
    const action = { type, payload };
    const requests: BatchRequest[] = [];
    if (flags.all || sel.all) requests.push({ select_all: true, action });
    else {
      for (const group of [...sel.groups, ...(flags.group ? [flags.group] : [])]) requests.push({ group_name: group, select_all: false, action });
      const ids = [...new Set((await resolveNamed(ctx.client(), sel)).map((p) => p.id))];
      if (ids.length > 0) requests.push({ target_ids: ids, select_all: false, action });
    }
    const results: ActionOutcome[] = [];
    const emptyGroups: string[] = [];
    const watch = WATCHED.includes(type) && flags.wait !== false;
    // The pids before the action: only a process it started is watched (a running program's start changes nothing).
    const before = watch ? new Map((await routes.listPrograms(ctx.client())).map((p) => [p.id, p.pid])) : null;
    const interrupted = type === 'Remove' ? sayOnInterrupt(REMOVAL_GOES_ON) : () => undefined;
    try {
      for (const req of requests) {
        const answer = (await routes.batch(ctx.client(), req)).results;
        if (req.group_name !== undefined && answer.length === 0) emptyGroups.push(req.group_name);
        results.push(...answer);
      }
    } finally {
      interrupted();
    }
    // A process that ended before the answer (Backoff, Fatal) is judged at once, one still running is watched.
    const started = before ? results.flatMap((r) => (r.ok && !r.error && (r.pid ? r.pid !== before.get(r.id) : ENDED.has(r.status ?? '')) ? [{ id: r.id, pid: r.pid ?? null }] : [])) : [];
    report(ctx, results, emptyGroups, started.length > 0 ? await watchStarted(ctx.client(), started) : new Map());
  };
  const waitOption = (cmd: Command) => cmd.option('--no-wait', `answer once started: do not watch the started processes for ${WATCH_MS / 1000} s for an early exit`);

  waitOption(selectable(program.command('start [programs...]').description('start programs (clears Fatal)'))).action((refs: string[], o: Flags) => run(refs, o, 'Start', null));
  selectable(program.command('stop [programs...]').description('stop programs: SIGTERM, then SIGKILL after stopsecs').option('-f, --force', 'SIGKILL at once')).action(
    (refs: string[], o: Flags & { force?: boolean }) => run(refs, o, 'Stop', { force: o.force ?? false }),
  );
  waitOption(selectable(program.command('restart [programs...]').description('stop then start programs'))).action((refs: string[], o: Flags) => run(refs, o, 'Restart', null));
  selectable(program.command('reload [programs...]').description('restart without downtime: a new process beside the old one, which stops once the new one is Healthy (needs a health check; docs/reload.md)')).action(
    (refs: string[], o: Flags) => run(refs, o, 'Reload', null),
  );
  selectable(program.command('rm [programs...]').aliases(['remove', 'delete']).description('stop and remove programs: SIGTERM, then SIGKILL after stopsecs').option('-f, --force', 'SIGKILL at once')).action(
    (refs: string[], o: Flags & { force?: boolean }) => run(refs, o, 'Remove', o.force ? { force: true } : null),
  );
  selectable(program.command('signal <signal> [programs...]').description('send hup, int, term, kill, quit, usr1 or usr2 (SIGHUP and HUP too) to the process group')).action(
    (signal: string, refs: string[], o: Flags) => run(refs, o, 'Signal', { signal: signalKey(signal) }),
  );
}

/**
 * The API name of a signal as kill(1) takes it (SIGHUP, HUP, hup). A name not in the set is a
 * usage error here (exit 2), said with the flag's words rather than the request body's path.
 */
function signalKey(signal: string): string {
  const key = signal.replace(/^sig(?=[a-z])/i, '').toLowerCase();
  if (!isSignalKey(key)) throw new CliError(`signal: '${signal}' is not one of ${Object.keys(SIGNALS).join(', ')} (any case, with or without SIG)`, 2);
  return key;
}

/** What Ctrl-C during `svc rm` means: svcd goes on, and how to see or force it. */
const REMOVAL_GOES_ON =
  'svc: interrupted; the removal goes on in svcd: each program is listed as Removing until its process has ended (svc list), and svc rm --force NAME ends it now\n';

/** Until the returned function is called, Ctrl-C prints `text` and exits 130 (as the shell's SIGINT). */
function sayOnInterrupt(text: string): () => void {
  const stop = () => {
    process.stderr.write(text);
    process.exit(130);
  };
  process.once('SIGINT', stop);
  return () => process.off('SIGINT', stop);
}

/** Prints the outcomes; `problems` are the started processes that ended at once (by id), said after the table. */
function report(ctx: CliContext, results: ActionOutcome[], emptyGroups: string[], problems: Map<string, StartProblem>): void {
  if (ctx.json()) ctx.print(JSON.stringify(results.map((r) => withProblem(r, problems.get(r.id))), null, 2));
  else if (results.length === 0 && emptyGroups.length === 0) ctx.print('no programs matched');
  else if (results.length > 0) ctx.print(table(['NAME', 'RESULT', 'STATUS', 'PID'], results.map((r) => [r.name || r.id, r.ok && !r.error ? 'ok' : (r.error ?? 'failed'), r.status, r.pid])));
  // A stop on a full data disk took effect but is not on disk yet (docs/operations.md).
  if (!ctx.json()) for (const r of results) if (r.warning) ctx.print(`warning: ${r.name || r.id}: ${r.warning}`);
  // How a reload was carried out: who took over, or "no health check: restarted, with downtime".
  if (!ctx.json()) for (const r of results) if (r.note) ctx.print(`${r.name || r.id}: ${r.note}`);
  // A process the action started and that crashed at once (docs/cli.md): the start worked, the program did not.
  if (!ctx.json()) for (const r of results) if (problems.has(r.id)) process.stderr.write(problemText(r.name || r.id, problems.get(r.id)!));
  if (results.some((r) => !r.ok)) process.exitCode = 1;
  // A group with no program is most often a misspelt one (supervisorctl: "no such group"): an
  // error once the other selections are done, said as every error is (one JSON object with --json).
  if (emptyGroups.length > 0) throw noProgramInGroups(emptyGroups);
}
