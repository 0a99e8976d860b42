import type { Clock } from '../../reconciler/clock.js';
import { DueTimer } from '../../reconciler/due-timer.js';
import type { WatchMessage, WatchProgram } from '../wire.js';

export interface CoalescerOptions {
  clock: Clock;
  /** At most one message per program per this many ms; changes in between collapse into one. */
  windowMs: number;
  /** The program's entry now, or null once it is gone. Read when the message goes out. */
  read(id: string): WatchProgram | null;
  send(message: WatchMessage): void;
}

interface Sent {
  entry: WatchProgram;
  /** When a `program` message last went out for it (-Infinity: only in the snapshot). */
  at: number;
}

/**
 * Turns a burst of change notices into few messages for one watch client. A notice only marks
 * the program dirty (level-triggered: the entry is re-read at send time, never taken from the
 * notice). Dirty programs are sent after the current burst (due now: a 0 ms timer), and a program
 * sent less than `windowMs` ago waits for the end of its window, so a program that changes 50
 * times a second costs one message per window. One clock timer serves every program (DueTimer).
 * An entry equal to what the client already has is not sent; a program the client has that no
 * longer exists becomes `removed`.
 */
export class WatchCoalescer {
  /** What the client holds, per program. */
  private readonly sent = new Map<string, Sent>();
  /** Dirty programs, each due at the end of its window. */
  private readonly due: DueTimer<string>;
  private closed = false;

  constructor(private readonly opts: CoalescerOptions) {
    this.due = new DueTimer(opts.clock, (id) => this.emit(id));
  }

  /** Records the entries the snapshot delivered. */
  seed(entries: readonly WatchProgram[]): void {
    for (const entry of entries) this.sent.set(entry.id, { entry, at: -Infinity });
  }

  /** Something about program `id` may have changed. */
  touch(id: string): void {
    if (this.closed || this.due.get(id) !== undefined) return;
    const windowEnd = (this.sent.get(id)?.at ?? -Infinity) + this.opts.windowMs;
    this.due.set(id, Math.max(this.opts.clock.now(), windowEnd));
  }

  close(): void {
    this.closed = true;
    this.due.stop();
  }

  private emit(id: string): void {
    if (this.closed) return; // a send before this one dropped the client
    const known = this.sent.get(id);
    const entry = this.opts.read(id);
    if (!entry) {
      if (!known) return; // created and removed within one window: the client never knew it
      this.sent.delete(id);
      this.opts.send({ type: 'removed', id });
      return;
    }
    if (known && sameEntry(known.entry, entry)) return; // the window restarts only with a real message
    this.sent.set(id, { entry, at: this.opts.clock.now() });
    this.opts.send({ type: 'program', program: entry });
  }
}

/** Field by field; entries are flat but for `health`. */
export function sameEntry(a: WatchProgram, b: WatchProgram): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<keyof WatchProgram>;
  for (const key of keys) {
    if (key === 'health') {
      if (a.health === b.health) continue;
      if (!a.health || !b.health || a.health.healthy !== b.health.healthy || a.health.failures !== b.health.failures) return false;
    } else if (a[key] !== b[key]) return false;
  }
  return true;
}
