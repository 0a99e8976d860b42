import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeClock } from '../../reconciler/fake-clock.js';
import { EventLog, type EventLogOptions } from '../../state/events/event-log.js';

/** A manual scheduler: the background writer runs only when a test calls `run()`. */
export class ManualScheduler {
  private pending: (() => void)[] = [];
  readonly schedule = (fn: () => void): void => void this.pending.push(fn);
  run(): void {
    const due = this.pending;
    this.pending = [];
    due.forEach((fn) => fn());
  }
}

/** A real LevelDB event log in a fresh temp dir, on a fake clock; `cleanup` closes and deletes it. */
export async function tempEventLog(opts: Partial<EventLogOptions> = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'svc-events-'));
  const clock = opts.clock instanceof FakeClock ? opts.clock : new FakeClock(Date.UTC(2024, 0, 10, 12));
  const file = join(dir, 'events.db');
  const open = (more: Partial<EventLogOptions> = {}) => EventLog.open({ file, keepDays: 0, clock, ...opts, ...more });
  const handle = { dir, file, clock, open, log: await open() };
  return {
    ...handle,
    /** Closes the current log and opens the same directory again (a daemon restart). */
    async reopen(more: Partial<EventLogOptions> = {}): Promise<EventLog> {
      await handle.log.close();
      handle.log = await open(more);
      return handle.log;
    },
    get current(): EventLog {
      return handle.log;
    },
    async cleanup(): Promise<void> {
      await handle.log.close().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
