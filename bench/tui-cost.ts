/**
 * `npm run build && node dist/bench/tui-cost.js [--programs 200] [--secs 30] [--settle 60]
 * [--build DIR] [--cpu-prof]` (bench/README.md, "svc ui idle cost")
 * The dashboard's own cost: svcd with N `sleep 3600` programs, `svc ui` in a tmux session, then
 * over a window in which nothing changes, the CPU (utime+stime from /proc/<pid>/stat, as % of one
 * core) and RSS (VmRSS, sampled every second) of `svc ui`, and the daemon's CPU over the same
 * window (what the dashboard makes svcd do). `--build` takes svc and svcd from another build's
 * dist/ (to compare before and after). It never asserts timings; it prints the figures and
 * writes them to bench/out/tui-cost.json. Every process it starts carries the run marker and is
 * killed by pid at the end (bench/cleanup.ts).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { cleanupAll, installSignalHandlers, onCleanup, RUN_ID, RUN_KEY } from './cleanup.js';
import { shippedNodeFlags, SVC, SVCD, SvcManager } from './managers/svc.js';
import { sleepPrograms } from './programs.js';
import { cpuSeconds, pidsWithEnv, rssMiB, sleep, waitFor } from './proc.js';
import { median } from './stats.js';

const OUT = join(fileURLToPath(new URL('../..', import.meta.url)), 'bench', 'out');
const log = (msg: string) => process.stderr.write(`[tui-cost ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);

const { values: args } = parseArgs({
  options: {
    programs: { type: 'string', default: '200' },
    secs: { type: 'string', default: '30' },
    settle: { type: 'string', default: '60' },
    'cpu-prof': { type: 'boolean', default: false },
    build: { type: 'string' },
  },
});
// --build DIR: the svc and svcd of another build (a checkout's dist/), to measure before and after.
const svcJs = args.build ? join(args.build, 'bin', 'svc.js') : SVC;
const svcdJs = args.build ? join(args.build, 'bin', 'svcd.js') : SVCD;
const n = Number(args.programs);
const secs = Number(args.secs);
const settleSecs = Number(args.settle);

export interface TuiCost {
  programs: number;
  windowSecs: number;
  /** `svc ui` CPU over the window, % of one core. */
  uiCpuPct: number;
  uiRssMedianMiB: number;
  uiRssMaxMiB: number;
  /** svcd CPU over the same window, % of one core (its idle cost included). */
  daemonCpuPct: number;
}

/** The pid of the `svc ui` node process (it carries the run marker and runs dist/bin/svc.js). */
function uiPid(): number | undefined {
  return pidsWithEnv(RUN_KEY, RUN_ID).find((pid) => {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0');
      return argv.includes(svcJs) && argv.includes('ui');
    } catch {
      return false;
    }
  });
}

async function main(): Promise<TuiCost> {
  installSignalHandlers(log);
  if (spawnSync('tmux', ['-V']).status !== 0) throw new Error('tmux is not installed (scripts/install-system-deps.sh installs it)');
  const svc = new SvcManager('array', 16, [], {}, svcdJs);
  onCleanup(() => svc.stop());
  await svc.start();
  log(`svcd pid ${svc.daemonPid()}; adding ${n} sleep programs`);
  await svc.add(sleepPrograms(n, 'sleep'));
  await waitFor(async () => (await svc.list()).filter((p) => p.running).length === n, `${n} programs running`, 120_000, 200);

  const session = `svc-tui-cost-${process.pid}`;
  const tmux = (...a: string[]) => execFileSync('tmux', a, { encoding: 'utf8' });
  onCleanup(() => void spawnSync('tmux', ['kill-session', '-t', session]));
  // --cpu-prof: svc ui writes a profile when it quits (q), into bench/out/prof/.
  const flags = [...shippedNodeFlags(svcJs), ...(args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${join(OUT, 'prof')}`] : [])].join(' ');
  tmux('new-session', '-d', '-s', session, '-x', '160', '-y', '45', '-e', `SVC_URL=${svc.baseUrl()}`, '-e', `${RUN_KEY}=${RUN_ID}`, `${process.execPath} ${flags} ${svcJs} ui`);
  await waitFor(() => tmux('capture-pane', '-p', '-t', session).includes(`of ${n}`), 'the program table', 30_000, 100);
  const pid = await waitFor(() => uiPid() !== undefined, 'the svc ui process', 10_000, 50).then(() => uiPid() ?? Number.NaN);
  log(`svc ui pid ${pid}; settling ${settleSecs} s, then measuring ${secs} s`);
  await sleep(settleSecs * 1000);

  const ui0 = cpuSeconds(pid);
  const d0 = cpuSeconds(svc.daemonPid());
  const t0 = performance.now();
  const rss: number[] = [];
  for (let i = 0; i < secs; i++) {
    rss.push(rssMiB(pid));
    await sleep(1000);
  }
  const wall = (performance.now() - t0) / 1000;
  const uiCpu = cpuSeconds(pid);
  const daemonCpu = cpuSeconds(svc.daemonPid());
  tmux('send-keys', '-t', session, 'q');
  await waitFor(() => uiPid() === undefined, 'svc ui to quit', 10_000, 50);
  const pct = (c0: number, c1: number) => Math.round(((c1 - c0) / wall) * 1000) / 10;
  return {
    programs: n,
    windowSecs: Math.round(wall),
    uiCpuPct: pct(ui0, uiCpu),
    uiRssMedianMiB: Math.round(median(rss)),
    uiRssMaxMiB: Math.round(Math.max(...rss)),
    daemonCpuPct: pct(d0, daemonCpu),
  };
}

try {
  const result = await main();
  mkdirSync(OUT, { recursive: true });
  writeFileSync(join(OUT, 'tui-cost.json'), `${JSON.stringify(result, null, 2)}\n`);
  process.stdout.write(
    `svc ui with ${result.programs} programs, idle ${result.windowSecs} s: cpu ${result.uiCpuPct}% of a core, ` +
      `rss ${result.uiRssMedianMiB} MiB (max ${result.uiRssMaxMiB}); svcd cpu ${result.daemonCpuPct}%\n`,
  );
} finally {
  await cleanupAll();
}
