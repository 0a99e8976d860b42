/**
 * A heap snapshot of svcd with N programs running (not part of `npm run bench`): what its memory
 * holds, for bench/FINDINGS.md.
 *
 *   npm run build && node dist/bench/heap-snapshot.js [N=500] [out-dir=bench/out]
 *
 * Starts a fresh svcd (with --heapsnapshot-signal=SIGUSR2) in a temporary SVC_ROOT, adds N
 * `sleep 3600` programs in one POST, waits until they run and 10 s more, writes the snapshot to
 * out-dir, and prints the retained-by-type summary (self size per constructor, top 30).
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { installSignalHandlers, killRunProcesses } from './cleanup.js';
import { SvcManager } from './managers/svc.js';
import { sleep, waitFor } from './proc.js';
import { sleepPrograms } from './programs.js';

const n = Number(process.argv[2] ?? 500);
const out = resolve(process.argv[3] ?? join('bench', 'out'));
const log = (msg: string) => process.stderr.write(`[heap-snapshot] ${msg}\n`);

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
  nodes: number[];
  strings: string[];
}

/** Self size per (type, name), largest first. */
export function summarize(snap: Snapshot): { key: string; count: number; bytes: number }[] {
  const fields = snap.snapshot.meta.node_fields;
  const width = fields.length;
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f));
  const types = snap.snapshot.meta.node_types[0];
  const sums = new Map<string, { count: number; bytes: number }>();
  for (let i = 0; i < snap.nodes.length; i += width) {
    const type = types[snap.nodes[i + typeAt]];
    const name = type === 'object' || type === 'closure' || type === 'native' ? snap.strings[snap.nodes[i + nameAt]] : '';
    const key = `${type}${name ? ` ${name.slice(0, 60)}` : ''}`;
    const s = sums.get(key) ?? { count: 0, bytes: 0 };
    s.count++;
    s.bytes += snap.nodes[i + sizeAt];
    sums.set(key, s);
  }
  return [...sums].map(([key, s]) => ({ key, ...s })).sort((a, b) => b.bytes - a.bytes);
}

installSignalHandlers(log);
const m = new SvcManager('array', 16, ['--heapsnapshot-signal=SIGUSR2']);
await m.start();
try {
  if (n > 0) {
    await m.add(sleepPrograms(n, 'idle'));
    await waitFor(async () => (await m.list()).filter((p) => p.running).length >= n, `${n} running`, 600_000, 200);
  }
  await sleep(10_000);
  const root = m.rootDir();
  process.kill(m.daemonPid(), 'SIGUSR2');
  const snapshotIn = () => readdirSync(root).find((f) => f.endsWith('.heapsnapshot'));
  await waitFor(() => snapshotIn() !== undefined, 'the snapshot', 120_000, 500);
  const file = snapshotIn()!;
  // Written in pieces: done when the size stops changing.
  for (let last = -1; ; ) {
    await sleep(1500);
    const size = statSync(join(root, file)).size;
    if (size === last && size > 0) break;
    last = size;
  }
  mkdirSync(out, { recursive: true });
  const dest = join(out, `svcd-${n}.heapsnapshot`);
  copyFileSync(join(root, file), dest);
  const rows = summarize(JSON.parse(readFileSync(dest, 'utf8')) as Snapshot);
  const total = rows.reduce((s, r) => s + r.bytes, 0);
  console.log(`N=${n}: heap snapshot ${dest}, ${(total / 2 ** 20).toFixed(1)} MiB in ${rows.reduce((s, r) => s + r.count, 0)} nodes`);
  for (const r of rows.slice(0, 30)) console.log(`${(r.bytes / 1024).toFixed(0).padStart(8)} KiB ${String(r.count).padStart(8)}  ${r.key}`);
} finally {
  await m.stop();
  killRunProcesses();
}
process.exit(0);
