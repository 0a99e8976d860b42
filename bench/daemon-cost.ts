/**
 * svcd's idle cost on its own (not part of `npm run bench`, never asserted):
 *
 *   npm run build && node dist/bench/daemon-cost.js [--sizes 0,100,500] [--settle 20] [--window 60] [--build /other/dist] [--node-flags '--lite-mode ...']
 *
 * For each size: a fresh svcd in a temporary SVC_ROOT, N `sleep 3600` programs in one POST, wait
 * until all run, let it settle (nothing reads), then over the window count the context switches
 * of every svcd thread (wake-ups), its CPU, and VmRSS; the spawner (a child process) is counted
 * apart. Then one scrape of /metrics for the V8 heap figures. Per-program memory cost =
 * (RSS at the largest N - RSS at 0) / N.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { installSignalHandlers, killRunProcesses } from './cleanup.js';
import { SvcManager, SVCD } from './managers/svc.js';
import { contextSwitches, cpuSeconds, rssMiB, sleep, waitFor } from './proc.js';
import { sleepPrograms } from './programs.js';
import { formatBreakdown, rssBreakdown } from './rss-breakdown.js';

const { values: args } = parseArgs({ options: { sizes: { type: 'string', default: '0,100,500' }, settle: { type: 'string', default: '20' }, window: { type: 'string', default: '60' }, build: { type: 'string' }, 'node-flags': { type: 'string', default: '' } } });
const log = (msg: string) => process.stderr.write(`[daemon-cost] ${msg}\n`);

/** Direct children of a pid (the spawner). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      out.push(...readFileSync(`/proc/${pid}/task/${tid}/children`, 'latin1').trim().split(/\s+/).filter(Boolean).map(Number));
    } catch {
      /* gone */
    }
  }
  return out;
}

function metric(text: string, name: string): number {
  const m = new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text);
  return m ? Number(m[1]) : Number.NaN;
}

async function one(n: number, settleSecs: number, windowSecs: number) {
  const m = new SvcManager('array', 16, args['node-flags'].split(/\s+/).filter(Boolean), {}, args.build ? join(args.build, 'bin', 'svcd.js') : SVCD);
  await m.start();
  try {
    if (n > 0) {
      await m.add(sleepPrograms(n, 'idle'));
      await waitFor(async () => (await m.list()).filter((p) => p.running).length >= n, `${n} running`, 600_000, 200);
    }
    await sleep(settleSecs * 1000);
    const pid = m.daemonPid();
    const helpers = childrenOf(pid).filter((c) => /svc-spawner/.test(readFileSync(`/proc/${c}/cmdline`, 'latin1')));
    const s0 = contextSwitches(pid);
    const h0 = helpers.reduce((s, p) => s + contextSwitches(p), 0);
    const c0 = cpuSeconds(pid);
    const t0 = performance.now();
    await sleep(windowSecs * 1000);
    const wall = (performance.now() - t0) / 1000;
    const row = {
      n,
      wakeupsPerMin: ((contextSwitches(pid) - s0) / wall) * 60,
      spawnerWakeupsPerMin: ((helpers.reduce((s, p) => s + contextSwitches(p), 0) - h0) / wall) * 60,
      cpuPct: ((cpuSeconds(pid) - c0) / wall) * 100,
      rssMiB: rssMiB(pid),
      spawnerRssMiB: helpers.reduce((s, p) => s + rssMiB(p), 0),
      heapUsedMiB: Number.NaN,
      heapTotalMiB: Number.NaN,
      externalMiB: Number.NaN,
    };
    log(`N=${n} svcd RSS by mapping: ${formatBreakdown(rssBreakdown(pid))}`);
    const text = await (await fetch(`${m.baseUrl()}/metrics`)).text();
    row.heapUsedMiB = metric(text, 'svc_nodejs_heap_size_used_bytes') / 2 ** 20;
    row.heapTotalMiB = metric(text, 'svc_nodejs_heap_size_total_bytes') / 2 ** 20;
    row.externalMiB = metric(text, 'svc_nodejs_external_memory_bytes') / 2 ** 20;
    const spaces = [...text.matchAll(/^svc_nodejs_heap_space_size_used_bytes\{space="(\w+)"\} (\S+)$/gm)].map((m) => `${m[1]} ${(Number(m[2]) / 2 ** 20).toFixed(1)}`);
    log(`N=${n} V8 heap spaces used (MiB): ${spaces.join(', ')}`);
    return row;
  } finally {
    await m.stop();
    killRunProcesses();
  }
}

installSignalHandlers(log);
const rows = [];
for (const n of args.sizes.split(',').map(Number)) {
  log(`N=${n}`);
  const row = await one(n, Number(args.settle), Number(args.window));
  log(JSON.stringify(row));
  rows.push(row);
}
const base = rows.find((r) => r.n === 0);
const big = rows.reduce((a, b) => (b.n > a.n ? b : a));
console.log('| N | svcd wake-ups/min | spawner wake-ups/min | svcd CPU %core | svcd RSS MiB | V8 heap used/total MiB | external MiB | spawner RSS MiB |');
console.log('|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const r of rows) console.log(`| ${r.n} | ${r.wakeupsPerMin.toFixed(1)} | ${r.spawnerWakeupsPerMin.toFixed(1)} | ${r.cpuPct.toFixed(3)} | ${r.rssMiB.toFixed(1)} | ${r.heapUsedMiB.toFixed(1)}/${r.heapTotalMiB.toFixed(1)} | ${r.externalMiB.toFixed(1)} | ${r.spawnerRssMiB.toFixed(1)} |`);
if (base && big.n > 0) console.log(`\nper-program cost: ${(((big.rssMiB - base.rssMiB) * 2 ** 20) / big.n).toFixed(0)} bytes of svcd RSS (N=${big.n} vs 0)`);
process.exit(0);
