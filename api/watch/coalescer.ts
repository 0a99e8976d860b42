import type { Clock } from '../../reconciler/clock.js';
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
 * notice). Dirty programs are sent after the current burst (a 0 ms timer), and a program sent
 * less than `windowMs` ago waits for the end of its window, so a program that changes 50 times a
 * second costs one message per window. An entry equal to what the client already has is not
 * sent; a program the client has that no longer exists becomes `removed`. One clock timer serves
 * every program (api/ may not use reconciler/'s DueTimer, and a window per client needs no heap).
 */
export class WatchCoalescer {
  /** What the client holds, per program. */
  private readonly sent = new Map<string, Sent>();
  private readonly dirty = new Set<string>();
  private cancelTimer: (() => void) | null = null;
  private timerAt = Infinity;
  private closed = false;

  constructor(private readonly opts: CoalescerOptions) {}

  /** Records the entries the snapshot delivered. */
  seed(entries: readonly WatchProgram[]): void {
    for (const entry of entries) this.sent.set(entry.id, { entry, at: -Infinity });
  }

  /** Something about program `id` may have changed. */
  touch(id: string): void {
    if (this.closed) return;
    this.dirty.add(id);
    this.arm(Math.max(this.opts.clock.now(), this.dueAt(id)));
  }

  close(): void {
    this.closed = true;
    this.cancelTimer?.();
    this.cancelTimer = null;
    this.dirty.clear();
  }

  private dueAt(id: string): number {
    return (this.sent.get(id)?.at ?? -Infinity) + this.opts.windowMs;
  }

  private arm(at: number): void {
    if (this.cancelTimer && this.timerAt <= at) return;
    this.cancelTimer?.();
    this.timerAt = at;
    this.cancelTimer = this.opts.clock.setTimer(at - this.opts.clock.now(), () => this.flush());
  }

  private flush(): void {
    this.cancelTimer = null;
    this.timerAt = Infinity;
    const now = this.opts.clock.now();
    let next = Infinity;
    for (const id of this.dirty) {
      const due = this.dueAt(id);
      if (due > now) {
        next = Math.min(next, due);
        continue;
      }
      this.dirty.delete(id);
      this.emit(id, now);
      if (this.closed) return; // send may close us (a slow client is dropped)
    }
    if (next < Infinity) this.arm(next);
  }

  private emit(id: string, now: number): void {
    const known = this.sent.get(id);
    const entry = this.opts.read(id);
    if (!entry) {
      if (!known) return; // created and removed within one window: the client never knew it
      this.sent.delete(id);
      this.opts.send({ type: 'removed', id });
      return;
    }
    if (known && sameEntry(known.entry, entry)) return; // the window restarts only with a real message
    this.sent.set(id, { entry, at: now });
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
