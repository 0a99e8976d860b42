import type { ProcessHandle } from '../port.js';
import type { SpawnerExit } from './frames.js';

export type Done = (exit: SpawnerExit['exit'], output: string, failure?: SpawnerExit['failure']) => void;

/** Exits nobody waits for yet are kept this many at most (oldest dropped). */
const MAX_UNCLAIMED = 10_000;

/**
 * Matches the spawner's EXIT frames to whoever waits for that child (pid + start time), keeps
 * those that arrive first (a recovered child's, or one ahead of its SPAWNED answer), and batches
 * acknowledgements: the spawner holds every exit until acknowledged (cumulatively, by serial).
 */
export class ExitRouter {
  private readonly waiters = new Map<number, { startTime: number; done: Done }>();
  private readonly unclaimed = new Map<number, SpawnerExit>();
  private ackSerial = 0;
  private ackScheduled = false;

  constructor(private readonly sendAck: (serial: number) => void) {}

  /** An EXIT frame arrived. */
  arrived(e: SpawnerExit): void {
    const w = this.waiters.get(e.pid);
    if (w && w.startTime === e.startTime) {
      this.waiters.delete(e.pid);
      this.deliver(e, w.done);
      return;
    }
    this.unclaimed.set(e.pid, e);
    if (this.unclaimed.size > MAX_UNCLAIMED) this.unclaimed.delete(this.unclaimed.keys().next().value as number);
  }

  /** Routes the child's exit to done; one that already came is delivered on the next turn. */
  watch(handle: ProcessHandle, done: Done): void {
    const early = this.held(handle);
    if (early) {
      this.unclaimed.delete(handle.pid);
      setImmediate(() => this.deliver(early, done));
      return;
    }
    this.waiters.set(handle.pid, { startTime: handle.startTime, done });
  }

  unwatch(pid: number): void {
    this.waiters.delete(pid);
  }

  /** The exit kept for exactly this process, if any. */
  held(handle: ProcessHandle): SpawnerExit | undefined {
    const e = this.unclaimed.get(handle.pid);
    return e && e.startTime === handle.startTime ? e : undefined;
  }

  heldStartTime(pid: number): number | null {
    return this.unclaimed.get(pid)?.startTime ?? null;
  }

  unclaimedExits(): SpawnerExit[] {
    return [...this.unclaimed.values()];
  }

  /** Everyone still waiting (the spawner was lost: the caller watches them another way). */
  takeWaiters(): [ProcessHandle, Done][] {
    const out = [...this.waiters].map(([pid, w]): [ProcessHandle, Done] => [{ pid, startTime: w.startTime }, w.done]);
    this.waiters.clear();
    return out;
  }

  /** A new spawner numbers its exits from 1 again. */
  resetAcks(): void {
    this.ackSerial = 0;
  }

  /** The highest serial delivered so far (0: none). */
  get delivered(): number {
    return this.ackSerial;
  }

  private deliver(e: SpawnerExit, done: Done): void {
    done(e.exit, e.output, e.failure);
    this.ackSerial = Math.max(this.ackSerial, e.serial);
    if (this.ackScheduled) return;
    this.ackScheduled = true;
    setImmediate(() => {
      this.ackScheduled = false;
      this.sendAck(this.ackSerial); // one ACK for a burst of exits
    });
  }
}
