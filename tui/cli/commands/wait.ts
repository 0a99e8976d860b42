import type { Command } from 'commander';
import type { ProgramSummary } from '../../../api/wire.js';
import type { ApiClient } from '../../client/http.js';
import { routes } from '../../client/routes.js';
import type { CliContext } from '../context.js';
import { CliError } from '../errors.js';
import { noProgramInGroups, resolveNamed } from '../programs.js';
import { DEFAULT_STABLE_SECS, DEFAULT_WAIT_SECS, formatSecs, MAX_WAIT_SECS, READY_POLL_MS, waitJson, waitReady, type WaitOutcome, type WaitTarget } from '../../../state/readiness.js';
import { NAME_A_PROGRAM, parseSelectors } from '../selectors.js';
import { apiReadinessSource, problemText, realTime } from '../spawn-check.js';

export interface WaitFlags {
  timeout?: string;
  stable?: string;
}

/** `svc wait PROGRAM...`: until the programs are ready (healthy, running, scheduled or done), one fails, or the timeout. */
export function registerWait(program: Command, ctx: CliContext): void {
  program
    .command('wait [programs...]')
    .description('wait until programs are ready: Healthy with a health check, else Running for --stable seconds; exit 1 when one fails or the timeout passes')
    .option('-a, --all', 'every program meant to run (as the word all)')
    .option('-g, --group <name>', 'every program in this group meant to run (as GROUP:*)')
    .option('--timeout <secs>', `give up after this many seconds (default ${DEFAULT_WAIT_SECS})`)
    .option('--stable <secs>', `a program without a health check must have run this long (default ${DEFAULT_STABLE_SECS}; 0: once Running)`)
    .action(async (words: string[], o: WaitFlags & { all?: boolean; group?: string }) => {
      const options = waitOptions(o, '--');
      if (words.length === 0 && !o.all && !o.group) throw new CliError(NAME_A_PROGRAM, 2);
      const targets = await targetsOf(ctx.client(), words, o);
      const outcome = await waitAndReport(ctx, targets, options);
      if (ctx.json()) ctx.print(JSON.stringify(waitJson(outcome), null, 2));
    });
}

/** The timeout and stable time of the flags, in ms; a value that is not a number of seconds is a usage error naming the flag. */
export function waitOptions(o: WaitFlags, prefix: string): { timeoutMs: number; stableMs: number } {
  const secs = (value: string | undefined, flag: string, fallback: number, min: number) => {
    if (value === undefined) return fallback * 1000;
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n) || n < min || n > MAX_WAIT_SECS) throw new CliError(`${prefix}${flag}: '${value}' is not a number of seconds (${min === 0 ? '0' : 'above 0'} to ${MAX_WAIT_SECS})`, 2);
    return n * 1000;
  };
  return { timeoutMs: secs(o.timeout, 'timeout', DEFAULT_WAIT_SECS, Number.MIN_VALUE), stableMs: secs(o.stable, 'stable', DEFAULT_STABLE_SECS, 0) };
}

/**
 * Waits for `targets`, prints each program as it is ready and how the wait ended; exit 1 unless
 * all are ready. With --json nothing is printed: the caller prints waitJson() of the outcome.
 */
export async function waitAndReport(ctx: CliContext, targets: WaitTarget[], options: { timeoutMs: number; stableMs: number }): Promise<WaitOutcome> {
  const json = ctx.json();
  const outcome = await waitReady(
    apiReadinessSource(ctx.client()),
    targets,
    { ...options, onReady: json ? undefined : (r) => ctx.print(`${r.name}: ${r.how}${r.secs >= 0.05 ? ` (after ${r.secs.toFixed(1)} s)` : ''}`) },
    realTime(READY_POLL_MS),
  );
  if (json) {
    if (outcome.failed.length > 0) process.exitCode = 1;
    return outcome;
  }
  for (const s of outcome.skipped) process.stderr.write(`note: ${s.name}: not waited for: ${s.status}, and not meant to run (autostart = false, or stopped on purpose)\n`);
  if (outcome.failed.length === 0) {
    const n = outcome.ready.length;
    ctx.print(n === 0 ? 'no program to wait for' : `${n === 1 ? '1 program' : `${n} programs`} ready in ${outcome.secs.toFixed(1)} s`);
    return outcome;
  }
  // The verdict first, then each program's reason and its last lines of stderr, indented under it.
  const total = outcome.ready.length + outcome.failed.length + outcome.pending.length;
  const after = outcome.secs >= 0.05 ? ` after ${outcome.secs.toFixed(1)} s` : '';
  const still = outcome.pending.length > 0 ? `; still on their way: ${outcome.pending.map((p) => `${p.name} (${p.status})`).join(', ')}` : '';
  const verdict = outcome.timedOut
    ? `${outcome.failed.length} of ${total} program${total === 1 ? '' : 's'} not ready after ${formatSecs(options.timeoutMs)}:`
    : `${outcome.failed.map((f) => f.name).join(', ')} ${outcome.failed.length === 1 ? 'is' : 'are'} not ready${after}${still}:`;
  process.stderr.write(`svc: ${verdict}\n${outcome.failed.map((f) => indent(problemText(f.name, f.problem).replace(/^warning: /, ''))).join('')}`);
  process.exitCode = 1;
  return outcome;
}

function indent(text: string): string {
  return text.replace(/^(?=.)/gm, '  ');
}

/** The programs the words and flags select: named ones by name or id, `all` and groups (only those meant to run are waited for). */
async function targetsOf(client: ApiClient, words: string[], o: { all?: boolean; group?: string }): Promise<WaitTarget[]> {
  const sel = parseSelectors(words);
  const targets = new Map<string, WaitTarget>();
  // Named last, so that a program both selected and named counts as named.
  const add = (p: ProgramSummary, named: boolean) => targets.set(p.id, { id: p.id, name: p.name, named });
  const groups = [...sel.groups, ...(o.group ? [o.group] : [])];
  if (o.all || sel.all || groups.length > 0) {
    const list = (await routes.listPrograms(client)).filter((p) => !p.removed);
    for (const p of list) if (o.all || sel.all || groups.includes(p.group_name ?? '')) add(p, false);
    const empty = groups.filter((g) => !list.some((p) => p.group_name === g));
    if (empty.length > 0) throw noProgramInGroups(empty);
  }
  for (const p of await resolveNamed(client, sel)) add(p, true);
  return [...targets.values()];
}
