/**
 * Event history benchmark (not a test): ingest rate through the queue, then per-program query
 * and stats latency with 1,000,000 stored events. Run: `npx tsc && node dist/bench/events-bench.js [events]`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { EventLog } from '../state/events/event-log.js';
import { eventQuery, type EventQuery } from '../state/events/query-types.js';
import type { EventType } from '../state/events/types.js';

const TOTAL = Number(process.argv[2] ?? 1_000_000);
const PROGRAMS = 1000;
const BURST = 4096; // emits between yields, so the background writer runs as it would in the daemon
const TYPES: EventType[] = ['process_started', 'process_exit', 'process_backoff', 'process_exit'];
const programId = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;

let now = Date.UTC(2024, 0, 1);
const clock = { now: () => now, setTimer: () => () => undefined };
const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

async function time<T>(label: string, runs: number, fn: () => Promise<T>): Promise<void> {
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  console.log(`${label}: median ${ms[Math.floor(runs / 2)].toFixed(2)} ms, max ${ms[runs - 1].toFixed(2)} ms (${runs} runs)`);
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-events-bench-'));
  const file = join(dir, 'events.db');
  try {
    let log = await EventLog.open({ file, keepDays: 0, clock });
    const t0 = performance.now();
    for (let i = 0; i < TOTAL; i++) {
      now++;
      const p = i % PROGRAMS;
      log.emit({ event: TYPES[i % TYPES.length], program_id: programId(p), program_name: `prog-${p}`, exit_code: i % 3, msg: `event ${i} of prog-${p}` });
      // A producer faster than the disk would see drops (counted); the bench measures the
      // sustained rate, so it yields to the writer while the queue is more than half full.
      if (i % BURST === BURST - 1) do await tick(); while (log.writerStats().queued > 32_768);
    }
    await log.flush();
    const secs = (performance.now() - t0) / 1000;
    const s = log.writerStats();
    console.log(`ingest: ${TOTAL} events in ${secs.toFixed(2)} s = ${Math.round(s.written / secs)} events/s written (dropped ${s.dropped}, failed ${s.failed})`);

    await log.close();
    const t1 = performance.now();
    log = await EventLog.open({ file, keepDays: 0, clock });
    console.log(`reopen (counter rebuild over ${TOTAL} keys): ${(performance.now() - t1).toFixed(0)} ms`);

    const q = (extra: Partial<EventQuery>) => log.query(eventQuery({ program_id: programId(123), limit: 100, ...extra }));
    await time('per-program query, limit 100, time asc', 20, () => q({}));
    await time('per-program query, limit 100, time desc', 20, () => q({ order: 'desc' }));
    await time('per-program query, limit 100, offset 500, type filter', 20, () => q({ offset: 500, event_type: 'process_exit' }));
    await time('per-program query, limit 100, sort_by exit_code (scans the program)', 5, () => q({ sort_by: 'exit_code' }));
    await time('daemon-wide query, limit 100, time desc', 20, () => log.query(eventQuery({ order: 'desc' })));
    await time('stats, whole daemon', 20, () => log.stats());
    await time('stats, one program', 20, () => log.stats(programId(123)));
    await log.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
