import { forProgram, invalid } from '../state/errors.js';
import type { ObservedProgram, ObservedRegistry } from '../state/observed.js';
import type { Departing } from '../state/departing.js';
import { withDefaults, type ProgramRecord } from '../state/program.js';
import { SIGNALS, isSignalKey, type Signaller } from '../state/signals.js';
import { ALIVE } from '../state/status.js';
import { stopLevels } from '../state/stop-order.js';
import type { ProgramStore } from '../state/store.js';
import { reloadPrograms } from './reload.js';
import { stalledDependencies } from './stalled-dependencies.js';

/** The outcome of an action on one program, as views report it. */
export interface ActionOutcome {
  id: string;
  name: string;
  ok: boolean;
  status?: string;
  pid?: number | null;
  error?: string;
  /** Set when the action took effect but is not on disk yet (a full data disk); it is written when space returns. */
  warning?: string;
  /** How the action was carried out, when that is worth saying (a reload: "no health check: restarted, with downtime"). */
  note?: string;
}

/** Extra time beyond stopsecs that a stop request waits for the exit before answering. */
const STOP_GRACE_MS = 5000;
/** How long a start request waits for the spawn to happen before answering. */
const START_WAIT_MS = 10_000;

/**
 * User actions as intent writes. Start, stop and restart change the stored intent and wait (bounded)
 * until the controllers have acted, so that a CLI can report the result. Many programs are
 * started in ascending and stopped in descending `priority`.
 */
export class ProgramActions {
  constructor(
    private readonly store: ProgramStore,
    private readonly observed: ObservedRegistry,
    private readonly signaller: Signaller,
  ) {}

  async start(records: ProgramRecord[]): Promise<ActionOutcome[]> {
    const ordered = byPriority(records, 'asc');
    const written = await this.store.setIntents(ordered.map((r) => r.id), (i) => ({ ...i, run: 'running', start_seq: i.start_seq + 1, force: false }));
    return Promise.all(
      written.map((r) =>
        this.waitOutcome(r, (o) => o !== null && ((o.applied_start_seq >= r.intent.start_seq && o.status !== 'Starting') || this.stalled(r)), START_WAIT_MS, true),
      ),
    );
  }

  async restart(records: ProgramRecord[]): Promise<ActionOutcome[]> {
    const ordered = byPriority(records, 'asc');
    const written = await this.store.setIntents(ordered.map((r) => r.id), (i) => ({ ...i, run: 'running', restart_seq: i.restart_seq + 1, force: false }));
    return Promise.all(
      written.map((r) =>
        this.waitOutcome(
          r,
          (o) => o !== null && ((o.applied_restart_seq >= r.intent.restart_seq && o.status !== 'Starting' && o.status !== 'Stopping') || this.stalled(r)),
          withDefaults(r.config).stopsecs * 1000 + START_WAIT_MS,
          true,
        ),
      ),
    );
  }

  /**
   * A restart without downtime for programs with a health check; a plain restart otherwise
   * (operations/reload.ts). A cron program has no long-running process to hand over: restarted.
   */
  async reload(records: ProgramRecord[]): Promise<ActionOutcome[]> {
    const cron = records.filter((r) => r.config.cron !== undefined);
    const [reloaded, restarted] = await Promise.all([
      reloadPrograms(this.store, this.observed, records.filter((r) => r.config.cron === undefined)),
      cron.length > 0 ? this.restart(cron) : Promise.resolve([]),
    ]);
    for (const o of restarted) o.note = 'a cron program: restarted (reload is for long-running programs)';
    return [...reloaded, ...restarted];
  }

  /**
   * One intent write for every target; the controllers' stop gate orders the stops (dependants
   * first, then descending priority), so the daemon converges even if it dies half-way. The
   * request waits for the whole order: one stop window per level. A stop never waits for disk
   * space: when the store cannot write, the intent is applied in memory and written later
   * (ProgramStore.setIntentsOrDefer), and the outcome says so.
   */
  async stop(records: ProgramRecord[], force: boolean): Promise<ActionOutcome[]> {
    const levels = stopLevels(records);
    const ordered = levels.flat();
    const waitMs = levels.reduce((sum, level) => sum + Math.max(...level.map(stopWaitMs)), 0);
    const { records: written, deferred } = await this.store.setIntentsOrDefer(ordered.map((r) => r.id), (i) => ({ ...i, run: 'stopped', force }));
    const outcomes = await Promise.all(written.map((r) => this.waitOutcome(r, (o) => !o || !ALIVE.has(o.status), waitMs)));
    if (deferred) for (const o of outcomes) o.warning = `stopped, but not recorded on disk yet (${deferred})`;
    return outcomes;
  }

  /** Removes programs (their processes are stopped gracefully by the controller). */
  /**
   * Removes programs; their processes stop as a stop does (SIGTERM, SIGKILL after stopsecs), or
   * with `force` get SIGKILL at once. The kill follows the removal, so a refused removal (a
   * dependant outside the set) leaves every process as it was.
   */
  async remove(records: ProgramRecord[], force = false): Promise<ActionOutcome[]> {
    await this.store.remove(records.map((r) => r.id));
    if (force) for (const r of records) this.signaller.signal(r.id, 'SIGKILL');
    return Promise.all(records.map((r) => this.waitOutcome(r, (o) => o === null, stopWaitMs(r))));
  }

  /**
   * A removal already under way (the program is gone, its process still stopping): waits for the
   * process's end as the removal did; `force` sends SIGKILL first. So an interrupted `svc rm`
   * can be repeated, or forced.
   */
  async endDeparting(d: Departing, force: boolean): Promise<ActionOutcome> {
    if (force) this.signaller.signal(d.record.id, 'SIGKILL');
    return this.waitOutcome(d.record, (o) => o === null, stopWaitMs(d.record));
  }

  signal(records: ProgramRecord[], signal: unknown): ActionOutcome[] {
    const names = Object.keys(SIGNALS).join(', ');
    if (signal === undefined || signal === null) throw invalid(`signal: is required, one of ${names}`);
    if (typeof signal !== 'string') throw invalid(`signal: must be a string, one of ${names}`);
    if (!isSignalKey(signal)) throw invalid(`signal: '${signal}' is not one of ${names}`);
    const name = SIGNALS[signal.toLowerCase() as keyof typeof SIGNALS];
    return records.map((r) => {
      const sent = this.signaller.signal(r.id, name);
      const o = this.observed.get(r.id);
      return sent
        ? { id: r.id, name: r.config.name, ok: true, status: o.status, pid: o.pid }
        : { id: r.id, name: r.config.name, ok: false, status: o.status, error: forProgram(r.config.name, `not running (status ${o.status})`) };
    });
  }

  /**
   * Whether a start of this program is held by dependencies nothing is starting: settled until
   * someone starts them (a start of web with db stopped answers at once, not after 10 s).
   */
  private stalled(r: ProgramRecord): boolean {
    return this.observed.get(r.id).status === 'Starting' && stalledDependencies(this.store, this.observed, r.id).length > 0;
  }

  /** `starts`: the action starts the program, so a start held by stalled dependencies names them. */
  private async waitOutcome(r: ProgramRecord, done: (o: ObservedProgram | null) => boolean, timeoutMs: number, starts = false): Promise<ActionOutcome> {
    const seen = await this.observed.waitFor(r.id, done, timeoutMs);
    const outcome: ActionOutcome = { id: r.id, name: r.config.name, ok: true, status: seen?.status ?? 'Removed', pid: seen?.pid ?? null };
    const stalled = starts && seen?.status === 'Starting' ? stalledDependencies(this.store, this.observed, r.id) : [];
    if (done(seen) && stalled.length > 0) {
      const them = stalled.length === 1 ? 'it' : 'them';
      outcome.note = `waiting for ${stalled.join(', ')}, which nothing is starting: start ${them} too, and ${r.config.name} follows`;
    } else if (!done(seen)) {
      const why = seen?.detail ? ` (${seen.detail})` : '';
      outcome.error = `still ${seen?.status ?? 'pending'}${why} after ${Math.round(timeoutMs / 1000)} s; the controller keeps trying`;
    }
    return outcome;
  }
}

function stopWaitMs(r: ProgramRecord): number {
  return withDefaults(r.config).stopsecs * 1000 + STOP_GRACE_MS;
}

function byPriority(records: ProgramRecord[], order: 'asc' | 'desc'): ProgramRecord[] {
  const sign = order === 'asc' ? 1 : -1;
  return [...records].sort((a, b) => sign * (withDefaults(a.config).priority - withDefaults(b.config).priority));
}

