import type { Clock } from './clock.js';
import type { Controller } from './controller.js';
import { Reconciler } from './reconciler.js';

/** One loop's figures, for /metrics and the architecture test. */
export interface LoopStats {
  controller: string;
  /** Keys ready to run now. */
  depth: number;
  /** Keys being reconciled now. */
  inFlight: number;
  /** Keys waiting for a requeue time. */
  delayed: number;
  passes: number;
  /** Sum of pass durations, ms. */
  passMs: number;
  /** Passes that threw (retried with rate-limited backoff). */
  errors: number;
}

export interface ManagerOptions {
  clock: Clock;
  /** A reconcile threw: the key is retried with backoff; the manager reports it here. */
  onError: (controller: string, key: unknown, err: unknown) => void;
  /** Concurrent keys per loop (different keys; one key is never reconciled twice at once). */
  workers?: number;
}

interface Entry<K, C, O> {
  controller: Controller<K, C, O>;
  loop: Reconciler<K>;
  errors: number;
}

/**
 * Runs every registered controller on its own level-triggered loop. It fans desired-state and
 * observed-state changes out through each controller's `watches`, prepares controllers in
 * registration order before any loop runs, starts the loops in that order, and stops them in
 * reverse. Controllers never see each other; adding one is one `register` call.
 */
export class ControllerManager<K, C, O> {
  private readonly entries: Entry<K, C, O>[] = [];
  private started = false;

  constructor(private readonly options: ManagerOptions) {}

  register(controller: Controller<K, C, O>): void {
    if (this.started) throw new TypeError(`controller '${controller.name}' registered after start`);
    if (this.entries.some((e) => e.controller.name === controller.name)) throw new TypeError(`controller '${controller.name}' registered twice`);
    const entry: Entry<K, C, O> = { controller, errors: 0, loop: undefined as unknown as Reconciler<K> };
    entry.loop = new Reconciler<K>(this.options.clock, (key) => controller.reconcile(key), {
      workers: this.options.workers,
      onError: (key, err) => {
        entry.errors++;
        this.options.onError(controller.name, key, err);
      },
    });
    this.entries.push(entry);
  }

  /** Names in registration order. */
  names(): string[] {
    return this.entries.map((e) => e.controller.name);
  }

  /** Prepares every controller, queues their initial keys, then starts the loops. */
  async start(): Promise<void> {
    await this.prepare();
    this.run();
  }

  /**
   * Prepares every controller (re-adoption of surviving processes) and queues their initial
   * keys; nothing is reconciled, so nothing is started, until `run`. The daemon finishes its
   * start-up in between: a part that fails then leaves no program started by this start.
   */
  async prepare(): Promise<void> {
    for (const { controller } of this.entries) await controller.prepare?.();
    this.started = true;
    for (const { controller, loop } of this.entries) for (const key of controller.initialKeys?.() ?? []) loop.enqueue(key);
  }

  /** Starts the loops (after `prepare`). */
  run(): void {
    for (const { loop } of this.entries) loop.start();
  }

  /** A committed desired-state change: each controller's `watches.desired` picks the keys. */
  desiredChanged(change: C): void {
    for (const { controller, loop } of this.entries) {
      const pick = controller.watches.desired;
      if (pick) for (const key of pick(change)) loop.enqueue(key);
    }
  }

  /** An observed-state change: each controller's `watches.observed` picks the keys. */
  observedChanged(observation: O): void {
    for (const { controller, loop } of this.entries) {
      const pick = controller.watches.observed;
      if (pick) for (const key of pick(observation)) loop.enqueue(key);
    }
  }

  /** Queues a key on one controller's loop (its own completions: a probe or hook finished). */
  enqueue(controller: string, key: K): void {
    this.entry(controller).loop.enqueue(key);
  }

  /** Queues keys on every loop (a daemon-wide condition changed, e.g. shutdown began). */
  enqueueEverywhere(keys: Iterable<K>): void {
    const list = [...keys];
    for (const { loop } of this.entries) for (const key of list) loop.enqueue(key);
  }

  stats(): LoopStats[] {
    return this.entries.map(({ controller, loop, errors }) => ({
      controller: controller.name,
      depth: loop.queue.length,
      inFlight: loop.queue.inFlight,
      delayed: loop.queue.delayedCount,
      passes: loop.passes,
      passMs: loop.passMs,
      errors,
    }));
  }

  /** Resolves when no loop has a key ready or in flight (tests and shutdown). */
  async idle(): Promise<void> {
    for (;;) {
      for (const { loop } of this.entries) await loop.idle();
      if (this.entries.every(({ loop }) => loop.queue.length === 0 && loop.queue.inFlight === 0)) return;
    }
  }

  /** Stops the loops in reverse order (passes in flight finish), then closes the controllers. */
  async stop(): Promise<void> {
    for (const { loop } of [...this.entries].reverse()) await loop.stop();
    for (const { controller } of [...this.entries].reverse()) await controller.close?.();
  }

  /** Every loop, for drivers that step them (tests). */
  loops(): Reconciler<K>[] {
    return this.entries.map((e) => e.loop);
  }

  private entry(name: string): Entry<K, C, O> {
    const entry = this.entries.find((e) => e.controller.name === name);
    if (!entry) throw new TypeError(`no controller named '${name}'`);
    return entry;
  }
}
