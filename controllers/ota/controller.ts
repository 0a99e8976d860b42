import type { Clock } from '../../reconciler/clock.js';
import type { Controller } from '../../reconciler/controller.js';
import type { Result } from '../../reconciler/reconciler.js';
import type { ControllerStatusStore } from '../../state/controller-status.js';
import type { EventSink } from '../../state/events/types.js';
import type { ObservedProgram, ObservedRegistry } from '../../state/observed.js';
import type { OtaDownloadProgress } from '../../state/ota.js';
import { withDefaults } from '../../state/program.js';
import type { ProgramStore } from '../../state/store.js';
import { featureKeys, type DesiredChange } from '../program-controller.js';
import { tempFiles } from './paths.js';
import { planOta } from './plan.js';
import { desiredOf, programFacts, type OtaDesired, type OtaEffect, type OtaInput, type StepName, type StepOutcome } from './plan-types.js';
import type { OtaLimits, OtaPorts } from './ports.js';
import { parseRecord, type OtaRecord } from './record.js';
import { runStep, type StepEffect } from './steps.js';
import { observedFacts, observedFingerprint, otaView } from './view.js';

export interface OtaControllerDeps {
  store: ProgramStore;
  observed: ObservedRegistry;
  events: EventSink;
  clock: Clock;
  /** Durable per-program records (`status:ota:<id>`), written before each step. */
  status: ControllerStatusStore<OtaRecord>;
  ports: OtaPorts;
  limits: OtaLimits;
  /** Asks the OTA loop to reconcile a key (a step finished). */
  wake: (id: string) => void;
  warn: (msg: string, fields: Record<string, unknown>) => void;
}

/** A change of one program's observed state (the manager's `ObservedChange` is one). */
export interface OtaObservation {
  id: string;
  /** The entry after the change; null when it was removed. */
  next: ObservedProgram | null;
}

/**
 * Installs `artifact` binaries: download, verify, backup, swap, restart, validate, or roll back
 * (docs/ota.md). Decisions are in plan.ts; steps run in the background through the ports and
 * come back as outcomes that wake the key. Restarts are asked of the process controller through
 * the observed state (`restart_requests.ota`), never by calling it.
 */
export class OtaController implements Controller<string, DesiredChange, OtaObservation> {
  readonly name = 'ota';
  private readonly running = new Map<string, { step: StepName; abort: AbortController; done: Promise<void> }>();
  private readonly outcomes = new Map<string, StepOutcome>();
  private readonly streamed = new Map<string, { target: string; digest: string }>();
  /** Programs reconciled since the daemon started (the first pass is a resume). */
  private readonly seen = new Set<string>();
  private readonly fingerprints = new Map<string, string>();
  /** How far each download in flight has come, and when it was last published. */
  private readonly downloads = new Map<string, { progress: OtaDownloadProgress; publishedAt: number }>();

  readonly watches = {
    // Programs with an artifact before or after the write (intents too: run, ota_rollback_seq), or an update record.
    desired: (change: DesiredChange): string[] =>
      featureKeys(change, { store: this.deps.store, uses: (c) => c.artifact !== undefined, known: (id) => this.deps.status.get(id) !== undefined, intents: true }),
    observed: ({ id, next }: OtaObservation): string[] => {
      if (!this.deps.status.get(id)) return [];
      const print = observedFingerprint(next);
      if (this.fingerprints.get(id) === print) return [];
      this.fingerprints.set(id, print);
      return [id];
    },
  };

  constructor(private readonly deps: OtaControllerDeps) {}

  initialKeys(): string[] {
    const ids = new Set(this.deps.status.ids());
    for (const r of this.deps.store.list()) if (r.config.artifact) ids.add(r.id);
    return [...ids];
  }

  async prepare(): Promise<void> {
    const { rejected } = await this.deps.status.load(parseRecord);
    for (const id of rejected) this.deps.warn('ota: unreadable status record ignored; the destination is inspected afresh', { program_id: id });
  }

  /** Aborts steps in flight and waits for them (temporary files are closed), then closes the ports. */
  async close(): Promise<void> {
    for (const run of this.running.values()) run.abort.abort();
    await Promise.all([...this.running.values()].map((run) => run.done));
    await this.deps.ports.close?.();
  }

  reconcile = async (id: string): Promise<Result | void> => {
    const { store, observed, clock, status } = this.deps;
    const program = store.get(id);
    const outcome = this.outcomes.get(id) ?? null;
    const input: OtaInput = {
      id,
      name: program?.config.name ?? '',
      desired: this.desiredOf(id),
      program: program ? programFacts(withDefaults(program.config)) : null,
      observed: observedFacts(observed.get(id)),
      runWanted: program?.intent.run === 'running',
      record: status.get(id) ?? null,
      running: this.running.get(id)?.step ?? null,
      outcome,
      rollbackSeq: program?.intent.ota_rollback_seq ?? 0,
      resumed: !this.seen.has(id),
      now: clock.now(),
      maxAttempts: this.deps.limits.maxAttempts,
    };
    const plan = planOta(input);
    // The step about to be taken is on disk before it is taken.
    if (JSON.stringify(input.record) !== JSON.stringify(plan.record)) {
      if (plan.record) await status.put(id, plan.record);
      else await status.delete(id);
    }
    if (outcome && this.outcomes.get(id) === outcome) this.outcomes.delete(id);
    this.seen.add(id);
    this.publish(id, plan.record, input.desired);
    for (const effect of plan.effects) await this.apply(id, effect, plan.record, input.desired);
    if (!plan.record && !this.running.has(id)) this.forget(id);
    if (plan.requeueAt !== undefined) return { requeueAfterMs: Math.max(0, plan.requeueAt - clock.now()) };
  };

  private async apply(id: string, effect: OtaEffect, record: OtaRecord | null, desired: OtaDesired | null): Promise<void> {
    switch (effect.kind) {
      case 'event':
        this.deps.events.emit(effect.event);
        return;
      case 'cancel':
        this.running.get(id)?.abort.abort();
        return;
      case 'cleanup':
        for (const file of tempFiles(effect.destination, id)) {
          await this.deps.ports.fs.remove(file).catch((err: unknown) => this.deps.warn('ota: cannot remove a temporary file', { program_id: id, file, error: String(err) }));
        }
        return;
      case 'signal':
        this.deps.ports.signal(effect.pid, effect.signal);
        return;
      case 'step':
        if (desired) this.launch(id, effect, record, desired);
        return;
      default: {
        const never: never = effect;
        throw new TypeError(`unknown effect ${JSON.stringify(never)}`);
      }
    }
  }

  /** Runs a step in the background; its outcome wakes the key. */
  private launch(id: string, effect: StepEffect, record: OtaRecord | null, desired: OtaDesired): void {
    const abort = new AbortController();
    const onProgress = effect.step === 'download' ? (received: number, total: number | null) => this.progress(id, received, total) : undefined;
    const job = { id, effect, record, desired, limits: this.deps.limits, streamed: this.streamed.get(id) ?? null, signal: abort.signal, onProgress };
    if (onProgress) this.downloads.set(id, { progress: { received_bytes: 0, total_bytes: null }, publishedAt: this.deps.clock.now() });
    const done = runStep(this.deps.ports, job).then((result) => {
      this.running.delete(id);
      this.downloads.delete(id);
      if (result.streamed) this.streamed.set(id, result.streamed);
      this.outcomes.set(id, result.outcome);
      this.deps.wake(id);
    });
    this.running.set(id, { step: effect.step, abort, done });
  }

  /**
   * A download's progress: published at most once a second, so that a fast transfer does not
   * flood the watch stream; the phase that follows replaces it.
   */
  private progress(id: string, received: number, total: number | null): void {
    const now = this.deps.clock.now();
    const last = this.downloads.get(id);
    if (!last) return;
    const due = now - last.publishedAt >= 1000;
    this.downloads.set(id, { progress: { received_bytes: received, total_bytes: total }, publishedAt: due ? now : last.publishedAt });
    if (due) this.publish(id, this.deps.status.get(id) ?? null, this.desiredOf(id));
  }

  private desiredOf(id: string): OtaDesired | null {
    const artifact = this.deps.store.get(id)?.config.artifact;
    return artifact ? desiredOf(artifact) : null;
  }

  /** Publishes the `ota` condition and this controller's restart request. */
  private publish(id: string, record: OtaRecord | null, desired: OtaDesired | null): void {
    const { observed, store } = this.deps;
    if (!store.get(id)) return; // removed: the process controller drops the entry
    const o = observed.get(id);
    const view = record ? otaView(record, desired, o, this.downloads.get(id)?.progress ?? null) : undefined;
    const requests = { ...o.restart_requests };
    if (record?.restart) requests.ota = { pid: record.restart.pid, reason: record.restart.reason, planned: true };
    else delete requests.ota;
    const patch: Partial<ObservedProgram> = {};
    if (JSON.stringify(view) !== JSON.stringify(o.ota)) patch.ota = view;
    if (JSON.stringify(requests) !== JSON.stringify(o.restart_requests ?? {})) patch.restart_requests = Object.keys(requests).length > 0 ? requests : undefined;
    if (Object.keys(patch).length > 0) observed.update(id, patch);
  }

  private forget(id: string): void {
    this.outcomes.delete(id);
    this.streamed.delete(id);
    this.fingerprints.delete(id);
    this.downloads.delete(id);
  }
}
