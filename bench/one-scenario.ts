/**
 * One svc scenario on its own (not part of `npm run bench`, never asserted): a fresh svcd from
 * this checkout (or `--build`), the scenario, the figure, the load average beside it.
 *
 *   npm run build && node dist/bench/one-scenario.js s8 [--n 1000] [--cpu-prof] [--build /other/dist]
 *   node dist/bench/one-scenario.js s3 [--secs 8] [--reps 1]
 *   node dist/bench/one-scenario.js s1 [--n 500] [--each] [--reps 3]
 *   node dist/bench/one-scenario.js s5 [--n 500] [--reps 3]
 *   s1, s5 and s8 with --perf --node-flags=--perf-basic-prof: `perf record -g` of svcd during the step
 *   any of them with --node-flags='--optimize-for-size ...' (added after the flags svcd ships with)
 *
 * s8: N cron programs due in one second (bench/scenarios/cron-slot.ts): ms from the slot to the
 * last cron_started. s3: one crash-looping program restarted without delay
 * (bench/scenarios/crash-restart.ts): median ms between its starts. s1: N `sleep 3600` registered
 * and started by one POST (`--each`: one POST each, 16 at a time) until all run, and svcd's RSS
 * (bench/scenarios/bulk-start.ts). s5: the same N started, then ms from the stop-all request until
 * every child is gone (bench/scenarios/stop-all.ts). With --cpu-prof svcd writes a
 * CPU profile to bench/out/prof/ (timings then include the profiler's cost).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { installSignalHandlers, killRunProcesses } from './cleanup.js';
import { SvcManager, SVCD } from './managers/svc.js';
import { crashRestart } from './scenarios/crash-restart.js';
import { cronSlot } from './scenarios/cron-slot.js';
import { bulkStart } from './scenarios/bulk-start.js';
import { stopAll } from './scenarios/stop-all.js';
import { median } from './stats.js';
import { childPids, cpuSeconds } from './proc.js';
import { scratchDir } from './scratch.js';

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: { n: { type: 'string' }, each: { type: 'boolean' }, secs: { type: 'string', default: '8' }, reps: { type: 'string', default: '1' }, 'cpu-prof': { type: 'boolean' }, build: { type: 'string' }, 'node-flags': { type: 'string', default: '' }, perf: { type: 'boolean' } },
});
const log = (msg: string) => process.stderr.write(`[one-scenario] ${msg}\n`);
/** `perf record -g` on svcd for the length of the measured step (s1/s5 --perf; pair with --node-flags=--perf-basic-prof). */
async function perfRecord(pid: number, out: string): Promise<{ stop(): Promise<void> }> {
  const perf = spawn('perf', ['record', '-F', '4999', '-g', '-p', String(pid), '-o', out], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => {
    perf.once('exit', () => resolve());
    perf.once('error', (err) => {
      log(`perf could not run (${err.message}): install linux-perf`);
      resolve();
    });
  });
  await new Promise((r) => setTimeout(r, 500)); // perf attaches
  return {
    stop: async () => {
      perf.kill('SIGINT');
      await exited;
      log(`perf data: ${out} (perf report -i ${out} --no-children --sort sym)`);
    },
  };
}
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const which = positionals[0];
if (which !== 's1' && which !== 's3' && which !== 's5' && which !== 's8') throw new Error('usage: one-scenario.js s1|s3|s5|s8 [options]');
const n = Number(args.n ?? (which === 's8' ? 1000 : 500));

installSignalHandlers(log);
const profDir = resolve('bench', 'out', 'prof');
if (args['cpu-prof'] || args.perf) mkdirSync(profDir, { recursive: true });
for (let rep = 0; rep < Number(args.reps); rep++) {
  const m = new SvcManager(args.each ? 'each' : 'array', 16, [...args['node-flags'].split(/\s+/).filter(Boolean), ...(args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : [])], {}, args.build ? join(args.build, 'bin', 'svcd.js') : SVCD);
  await m.start();
  try {
    const before = load();
    // CPU seconds of svcd and of its children (svc-spawner).
    const cpu = () => [cpuSeconds(m.daemonPid()), childPids(m.daemonPid()).reduce((s, p) => s + cpuSeconds(p), 0)];
    if (which === 's8') {
      let spread = '';
      let atSlot = [0, 0];
      const recording: { perf?: { stop(): Promise<void> } } = {};
      const ms = await cronSlot(
        m,
        n,
        5,
        (o) => (spread = [0.01, 0.25, 0.5, 0.75, 0.9].map((q) => `p${q * 100} ${o[Math.floor(q * (o.length - 1))]}`).join(', ')),
        () => (atSlot = cpu()),
        args.perf ? async () => void (recording.perf = await perfRecord(m.daemonPid(), join(profDir, 'perf-s8.data'))) : undefined,
      );
      await recording.perf?.stop();
      const used = cpu().map((v, i) => ((v - atSlot[i]) * 1000).toFixed(0));
      console.log(`S8 ${n} cron jobs: last cron_started ${ms} ms after the slot (${spread}); CPU from the slot until all were seen: svcd ${used[0]} ms, svc-spawner ${used[1]} ms (load average before: ${before}, after: ${load()})`);
    } else if (which === 's1' || which === 's5') {
      const startPerf = args.perf && which === 's1' ? await perfRecord(m.daemonPid(), join(profDir, 'perf-s1.data')) : null;
      const cpu0 = cpu();
      const started = await bulkStart(m, n);
      await startPerf?.stop();
      const used = cpu().map((v, i) => ((v - cpu0[i]) * 1000).toFixed(0));
      const how = args.each ? 'one POST each, 16 at a time' : 'one POST';
      if (which === 's1') console.log(`S1 start ${n} (${how}): ${started.ms.toFixed(0)} ms, CPU svcd ${used[0]} ms, svc-spawner ${used[1]} ms, svcd+spawner RSS ${started.rss0MiB.toFixed(1)} -> ${started.rssMiB.toFixed(1)} MiB (load average before: ${before}, after: ${load()})`);
      else {
        const perf = args.perf ? await perfRecord(m.daemonPid(), join(profDir, 'perf-s5.data')) : null;
        const cpu1 = cpu();
        const ms = await stopAll(m);
        await perf?.stop();
        const stopUsed = cpu().map((v, i) => ((v - cpu1[i]) * 1000).toFixed(0));
        console.log(`S5 stop all ${n}: children gone after ${ms.gone.toFixed(0)} ms, answered after ${ms.answered.toFixed(0)} ms, CPU svcd ${stopUsed[0]} ms, svc-spawner ${stopUsed[1]} ms (load average before: ${before}, after: ${load()})`);
      }
    } else {
      const dir = scratchDir('s3-');
      const intervals = await crashRestart(m, join(dir, 'stamps'), Number(args.secs));
      console.log(`S3 crash-restart: ${intervals.length + 1} starts in ${args.secs} s, median interval ${median(intervals).toFixed(2)} ms (load average before: ${before}, after: ${load()})`);
    }
  } finally {
    await m.stop();
    killRunProcesses();
  }
}
process.exit(0);
