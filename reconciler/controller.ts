import type { Result } from './reconciler.js';

/**
 * What wakes a controller's keys. A watch only *enqueues* keys; the controller re-reads desired
 * and observed state in `reconcile` (level-triggered), so a watch may over-approximate.
 */
export interface Watches<K, Change, Observation> {
  /** Keys to reconcile after a committed desired-state change (default: none). */
  desired?: (change: Change) => Iterable<K>;
  /** Keys to reconcile after an observed-state change published by any controller (default: none). */
  observed?: (observation: Observation) => Iterable<K>;
}

/**
 * One controller: a name, a level-triggered `reconcile(key)` and what wakes it. The manager
 * (`ControllerManager`) builds its loop, fans changes out to it, exposes its metrics and starts
 * and stops it in registration order. Controllers never call each other: they publish facts
 * (conditions) into the observed state and read the others' facts in their planners.
 */
export interface Controller<K, Change = unknown, Observation = unknown> {
  readonly name: string;
  reconcile(key: K): Promise<Result | void>;
  readonly watches: Watches<K, Change, Observation>;
  /** Keys to reconcile when the loop starts (e.g. every program). */
  initialKeys?(): Iterable<K>;
  /** Start-up work before any loop runs: load durable records, re-adopt processes. */
  prepare?(): Promise<void>;
  /** Teardown after every loop has stopped: cancel timers, flush durable writes. */
  close?(): Promise<void>;
}
