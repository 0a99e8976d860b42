/**
 * `npm run bench [-- --quick] [--reps N] [--only svc,pm2,supervisord,s6] [--cpu-prof] [--big N]`
 * Runs svc, PM2, supervisord and s6 through the same scenarios on this machine and writes a markdown
 * table of medians and svc/peer ratios (bench/RESULTS.md; quick runs go to bench/out/). It never
 * asserts timings. Every process it starts carries a run marker and is killed by pid at the end,
 * also on SIGINT/SIGTERM.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { VERSION } from '../conf/version.js';
import { cleanupAll, installSignalHandlers, killRunProcesses, onCleanup } from './cleanup.js';
import { describeMachine } from './machine.js';
import type { Manager } from './managers/manager.js';
import { Pm2Manager } from './managers/pm2.js';
import { S6Manager } from './managers/s6.js';
import { SupervisordManager } from './managers/supervisord.js';
import { SvcManager } from './managers/svc.js';
import { parseStamps } from './programs.js';
import { MANAGERS, resultsTable, type ManagerName } from './report.js';
import { Results } from './results.js';
import { bulkStart } from './scenarios/bulk-start.js';
import { crashRestart } from './scenarios/crash-restart.js';
import { killFloor, respawnFloor, startFloor, startFloorC } from './scenarios/floor.js';
import { cronSlot } from './scenarios/cron-slot.js';
import { idleWakeups } from './scenarios/wakeups.js';
import { listLatency } from './scenarios/list-latency.js';
import { stackApply } from './scenarios/stack-apply.js';
import { stopAll } from './scenarios/stop-all.js';
import { gaps, median } from './stats.js';
import { ensurePm2, ensureS6, ensureSupervisord } from './tools.js';
import { scratchDir } from './scratch.js';

const BENCH_DIR = join(fileURLToPath(new URL('../..', import.meta.url)), 'bench');
const log = (msg: string) => process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    reps: { type: 'string' },
    only: { type: 'string' },
    'cpu-prof': { type: 'boolean', default: false },
    out: { type: 'string' },
    sizes: { type: 'string' },
    big: { type: 'string' },
  },
});

const quick = args.quick;
const plan = {
  sizes: args.sizes ? args.sizes.split(',').map(Number) : quick ? [10, 50] : [10, 100, 500],
  reps: Number(args.reps ?? (quick ? 1 : 3)),
  idleN: quick ? 50 : 100,
  idleSecs: quick ? 10 : 60,
  /**
   * Quiet time before the idle window: the GC and sampling right after a bulk start are not idle
   * (svc samples usage for 15 s after the last read, and S1 reads the list until all run).
   */
  settleSecs: quick ? 16 : 20,
  cronN: quick ? 100 : 1000,
  /** svc only: one bulk start this large, to show how the costs grow (0: skipped). */
  bigN: Number(args.big ?? (quick ? 0 : 10_000)),
  crashSecs: quick ? 3 : 10,
  queries: quick ? 5 : 20,
};
const bigN = Math.max(...plan.sizes);
const only = new Set((args.only ?? MANAGERS.join(',')).split(',') as ManagerName[]);
const profDir = join(BENCH_DIR, 'out', 'prof');

interface Contender {
  make(): Manager;
  /** Svc variants that only run S1, into this measure (N POSTs; child_process instead of the spawner). */
  s1Only?: string;
  /** Runs S6 (stack apply): svc only. */
  stack?: boolean;
}

const results = new Results();
const S1_EACH = 'time to all running; svc: N POSTs, 16 at a time';
const S1_CHILD_PROCESS = "time to all running; svc with Node's child_process (SVC_SPAWNER=off), one POST";
const S0 = `S0 start floor, N=${bigN}`;
const C_FLOORS = { posix_spawn: 'C posix_spawn', clone: 'C clone(CLONE_VM|CLONE_VFORK)', fork: 'C fork' } as const;
const s1 = (n: number) => `S1 bulk start, N=${n}`;
/** Memory once the start burst is over (a garbage-collected runtime keeps the burst's garbage a while). */
const RSS_SETTLE_SECS = 10;
const S2 = `S2 idle, ${plan.idleN} running, ${plan.idleSecs} s`;
const S3 = 'S3 crash-restart (exit 1 at once)';
const S4 = `S4 status query, N=${bigN}`;
const S5 = `S5 stop all, N=${bigN}`;
const S7 = `S7 memory per program, N=${bigN}`;
const S8 = `S8 cron (svc only): ${plan.cronN} jobs due in one second`;
const S9 = `S9 growth (svc only), N=${plan.bigN}`;
for (const n of plan.sizes) {
  const big = n === bigN;
  results.define(s1(n), 'time to all running; svc: one POST with an array', 'ms', big ? '≤1.5x the C floor (S0), ≤0.4x pm2, ≤0.2x supervisord' : undefined);
  results.define(s1(n), S1_EACH, 'ms');
  results.define(s1(n), S1_CHILD_PROCESS, 'ms');
  results.define(s1(n), 'daemon RSS after', 'MiB', big ? '≤60 MiB' : undefined);
  if (big) results.define(s1(n), `daemon RSS ${RSS_SETTLE_SECS} s later`, 'MiB');
}
results.define(S0, "Node child_process.spawn (what svc's fallback does)", 'ms');
for (const label of Object.values(C_FLOORS)) results.define(S0, label, 'ms');
results.define(S2, 'daemon CPU', '%core', '≤0.05 %core');
results.define(S2, 'daemon wake-ups (context switches of all its threads)', '/min', '→ 0');
results.define(S2, 'daemon RSS', 'MiB');
results.define(S7, '(RSS with N − RSS empty) / N', 'bytes');
results.define(S8, 'slot to the last cron_started', 'ms', 'all within 1000 ms');
results.define(S9, 'time to all running, one POST', 'ms');
results.define(S9, 'daemon RSS after', 'MiB');
results.define(S9, '(RSS with N − RSS empty) / N', 'bytes');
results.define(S3, 'interval between starts (median)', 'ms');
results.define(S3, 'added delay over floor', 'ms', '≤5 ms');
results.define(S4, 'API: svc GET /api/v1/programs; pm2 API list(); supervisord XML-RPC', 'ms', '<5 ms');
results.define(S4, 'CLI: svc list; pm2 jlist; supervisorctl status', 'ms', '<150 ms');
results.define(S5, 'time until every child is gone', 'ms', '≤1.5x floor');
results.define(S5, 'time until the stop request is answered', 'ms');
const S6 = `S6 stack apply (svc only), N=${bigN}`;
results.define(S6, 'PUT /api/v1/stack to all running', 'ms');

const contenders: Contender[] = [
  ...(only.has('svc') ? [{ make: () => new SvcManager('array', 16, args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []), stack: true }] : []),
  ...(only.has('svc') ? [{ make: () => new SvcManager('each', 16), s1Only: S1_EACH }] : []),
  ...(only.has('svc') ? [{ make: () => new SvcManager('array', 16, [], { SVC_SPAWNER: 'off' }), s1Only: S1_CHILD_PROCESS }] : []),
  ...(only.has('pm2') ? [{ make: () => new Pm2Manager() }] : []),
  ...(only.has('supervisord') ? [{ make: () => new SupervisordManager() }] : []),
  ...(only.has('s6') ? [{ make: () => new S6Manager() }] : []),
];

/** Starts a fresh manager, runs `fn`, and always stops it and kills whatever of it is left. */
async function withManager<T>(c: Contender, fn: (m: Manager) => Promise<T>): Promise<T> {
  const m = c.make();
  const unregister = onCleanup(() => m.stop());
  try {
    await m.start();
    return await fn(m);
  } finally {
    await m.stop().catch((err: unknown) => log(`${m.variant}: stop failed: ${String(err)}`));
    unregister();
    const left = killRunProcesses();
    if (left > 0) log(`${m.variant}: killed ${left} processes it left behind`);
  }
}

async function measureFloors(work: string): Promise<number> {
  for (const n of plan.sizes) results.add(s1(n), 'time to all running; svc: one POST with an array', 'floor', await startFloor(n));
  for (const n of plan.sizes) results.add(s1(n), S1_EACH, 'floor', await startFloor(n));
  for (const n of plan.sizes) results.add(s1(n), S1_CHILD_PROCESS, 'floor', await startFloor(n));
  results.add(S0, "Node child_process.spawn (what svc's fallback does)", 'floor', await startFloor(bigN));
  for (const [method, label] of Object.entries(C_FLOORS)) results.add(S0, label, 'floor', await startFloorC(bigN, method as keyof typeof C_FLOORS));
  results.add(S5, 'time until every child is gone', 'floor', await killFloor(bigN));
  if (only.has('svc')) results.add(S6, 'PUT /api/v1/stack to all running', 'floor', await startFloor(bigN));
  const file = join(work, 'floor.stamps');
  rmSync(file, { force: true });
  await respawnFloor(file, plan.crashSecs);
  const floorGap = median(gaps(parseStamps(readFileSync(file, 'utf8'))));
  results.add(S3, 'interval between starts (median)', 'floor', floorGap);
  return floorGap;
}

async function runContender(c: Contender, work: string, floorGap: number): Promise<void> {
  for (const n of plan.sizes) {
    await withManager(c, async (m) => {
      log(`${m.variant}: S1 N=${n}`);
      const r = await bulkStart(m, n, n === bigN && !c.s1Only ? RSS_SETTLE_SECS * 1000 : 0);
      const who = m.name;
      if (c.s1Only) {
        results.add(s1(n), c.s1Only, who, r.ms);
        return;
      }
      results.add(s1(n), 'time to all running; svc: one POST with an array', who, r.ms);
      if (who !== 'svc') results.add(s1(n), S1_EACH, who, r.ms);
      results.add(s1(n), 'daemon RSS after', who, r.rssMiB);
      if (r.rssSettledMiB !== null) results.add(s1(n), `daemon RSS ${RSS_SETTLE_SECS} s later`, who, r.rssSettledMiB);
      if (n === bigN) results.add(S7, '(RSS with N − RSS empty) / N', who, ((r.rssMiB - r.rss0MiB) * 2 ** 20) / n);
      if (n === plan.idleN) {
        log(`${m.variant}: S2 idle ${plan.idleSecs} s`);
        const i = await idleWakeups(m, plan.idleSecs, plan.settleSecs);
        results.add(S2, 'daemon CPU', who, i.cpuPct);
        results.add(S2, 'daemon wake-ups (context switches of all its threads)', who, i.perMinute);
        results.add(S2, 'daemon RSS', who, i.rssMiB);
        // Which seconds woke it: a steady timer and a late collector pass look alike per minute.
        const woke = i.perSecond.flatMap((n, sec) => (n > 0 ? [`${sec + 1}s:${n}`] : []));
        if (woke.length > 0) log(`${m.variant}: S2 context switches by second of the window: ${woke.join(' ')}`);
      }
      if (n === bigN) {
        log(`${m.variant}: S4 status queries`);
        const { api, cli } = m.statusQueries();
        for (const t of await listLatency(api, plan.queries)) results.add(S4, 'API: svc GET /api/v1/programs; pm2 API list(); supervisord XML-RPC', who, t);
        for (const t of await listLatency(cli, plan.queries)) results.add(S4, 'CLI: svc list; pm2 jlist; supervisorctl status', who, t);
        log(`${m.variant}: S5 stop all`);
        const stopped = await stopAll(m);
        results.add(S5, 'time until every child is gone', who, stopped.gone);
        results.add(S5, 'time until the stop request is answered', who, stopped.answered);
      }
    });
  }
  if (c.s1Only) return;
  if (c.stack) {
    await withManager(c, async (m) => {
      if (!(m instanceof SvcManager)) return;
      log(`${m.variant}: S6 stack apply N=${bigN}`);
      results.add(S6, 'PUT /api/v1/stack to all running', 'svc', await stackApply(m, bigN));
    });
    await withManager(c, async (m) => {
      if (!(m instanceof SvcManager)) return;
      log(`${m.variant}: S8 ${plan.cronN} cron jobs in one slot`);
      results.add(S8, 'slot to the last cron_started', 'svc', await cronSlot(m, plan.cronN));
    });
    if (plan.bigN > 0) {
      await withManager(c, async (m) => {
        log(`${m.variant}: S9 bulk start N=${plan.bigN}`);
        const r = await bulkStart(m, plan.bigN);
        results.add(S9, 'time to all running, one POST', 'svc', r.ms);
        results.add(S9, 'daemon RSS after', 'svc', r.rssMiB);
        results.add(S9, '(RSS with N − RSS empty) / N', 'svc', ((r.rssMiB - r.rss0MiB) * 2 ** 20) / plan.bigN);
      });
    }
  }
  await withManager(c, async (m) => {
    log(`${m.variant}: S3 crash-restart ${plan.crashSecs} s`);
    const file = join(work, `${m.name}.stamps`);
    rmSync(file, { force: true });
    const intervals = await crashRestart(m, file, plan.crashSecs);
    log(`${m.variant}: ${intervals.length + 1} starts in ${plan.crashSecs} s`);
    const gap = median(intervals);
    results.add(S3, 'interval between starts (median)', m.name, gap);
    results.add(S3, 'added delay over floor', m.name, gap - floorGap);
  });
}

const NOTES = `Notes:
- Medians over ${plan.reps} repetition(s); S4 pools ${plan.queries} queries per repetition. Ratios are svc/peer: below 1.00x svc is faster or leaner.
- The machine was shared with other engineers' builds and tests while this ran: figures are noisy, compare ratios rather than absolutes.
- "running" means the manager reports the program running with a pid (supervisord with startsecs=0, so that it says RUNNING at spawn as svc and PM2 do).
- S1 floor (S0): a bare Node script spawning N \`sleep 3600\` until each has a pid. S5 floor: the same script SIGTERMs its N sleeps and polls /proc until all are gone.
- S0 C floors: a tiny C program (native/spawn-floor) starting N \`sleep 3600\` in new sessions with fds on /dev/null, by posix_spawn, clone(CLONE_VM|CLONE_VFORK) (what svc-spawner does) and fork. svc starts programs through svc-spawner unless SVC_SPAWNER=off (the child_process row).
- S3 floor: a bare Node loop respawning the same crash program (\`bash -c 'echo $EPOCHREALTIME >> file; exit 1'\`) on its exit; "added delay" = manager's median interval minus that floor.
- Enforced minimum restart delay: svc backoff_secs = 0 (no delay); PM2 restart_delay = 0 (no exp_backoff_restart_delay, max_restarts 1e6); supervisord has no restart delay once a process reached RUNNING (startsecs=0, autorestart=true, startretries 1e6).
- Profiling findings and suggested fixes for svc: FINDINGS.md.
- s6: our own s6-svscan on a temporary scan directory, one service directory (\`run\` = exec of the command) per program, registered by \`s6-svscanctl -a\`; status read from each \`supervise/status\` (API row) and by \`s6-svstat\` per service (CLI row); stop all = \`s6-svc -d\` on every service. s6-supervise waits 1 s before restarting a program that lived less than a second (S3).
- Memory (S1, S2, S7) is summed over the manager's own processes: svc = svcd + svc-spawner (RSS); s6 = s6-svscan + one s6-supervise per program, as PSS (shared libc pages counted once, not 500 times); PM2 and supervisord = their daemon's RSS.
- S2 wake-ups: context switches of every thread of the manager's processes over the window, per minute (robust to machine load: a sleeping thread switches once per wake-up). S2 starts ${plan.settleSecs} s after S1.
- S1 "RSS ${RSS_SETTLE_SECS} s later": the same memory ${RSS_SETTLE_SECS} s after all run, nothing asked of the manager meanwhile (svcd's V8 heap keeps the start burst's garbage until its next full collection; "RSS after" is taken the moment all run).
- S7: (memory with N running − memory of the same fresh daemon before the N were added) / N.
- S8 (svc only; no peer schedules cron jobs): N \`/bin/true\` cron programs all due on the same second; ms from that second to the last cron_started event (the event log's stamps).
- S9 (svc only, ${plan.bigN} programs: PM2 and supervisord take minutes per start at this size, and s6 would need ${plan.bigN} supervisor processes): one POST, time until all run, and memory, to compare with N=${bigN}.
- Managers keep their files in one scratch directory per run, removed when the bench exits (bench/scratch.ts): removing one manager's 1,000 log files right before the next one created its own made ext4 scan past every recently freed inode (0.5 ms per new file), which measured the bench's clean-up.
- S6: stack apply of N sleeps in one PUT /api/v1/stack (svc only; floor = S0 at that N). Event ingest is not measured (no ingest endpoint to drive from outside).`;

async function main(): Promise<void> {
  installSignalHandlers(log);
  const work = scratchDir('work-');
  const versions: Record<string, string> = { svc: VERSION };
  if (only.has('pm2')) versions.pm2 = await ensurePm2(log);
  if (only.has('supervisord')) versions.supervisord = await ensureSupervisord(log);
  if (only.has('s6')) versions.s6 = await ensureS6(log);
  log(`plan: ${JSON.stringify(plan)}; managers: ${[...only].join(', ')}`);
  try {
    for (let rep = 1; rep <= plan.reps; rep++) {
      log(`repetition ${rep}/${plan.reps}: floors`);
      const floorGap = await measureFloors(work);
      for (const c of contenders) await runContender(c, work, floorGap);
    }
  } finally {
    await cleanupAll();
  }
  const table = resultsTable(results.metrics());
  const doc = `# svc vs PM2 vs supervisord${quick ? ' (quick run)' : ''}\n\nWritten by \`npm run bench${quick ? ' -- --quick' : ''}\`; see README.md for how to run it and what each scenario does.\n\n${await describeMachine(versions)}\n\n${table}\n\n${NOTES}\n`;
  mkdirSync(join(BENCH_DIR, 'out'), { recursive: true });
  const out = args.out ?? (quick || only.size < MANAGERS.length ? join(BENCH_DIR, 'out', 'RESULTS.md') : join(BENCH_DIR, 'RESULTS.md'));
  writeFileSync(out, doc);
  writeFileSync(join(BENCH_DIR, 'out', 'samples.json'), JSON.stringify({ plan, metrics: results.metrics() }, null, 2));
  process.stdout.write(`${table}\n\nwritten to ${out}\n`);
}

// PM2's client library keeps handles open after disconnect: exit explicitly once done.
main().then(
  () => process.exit(0),
  async (err: unknown) => {
    log(`failed: ${(err as Error).stack ?? String(err)}`);
    await cleanupAll();
    process.exit(1);
  },
);
