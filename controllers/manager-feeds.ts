import type { ControllerManager } from '../reconciler/manager.js';
import type { ObservedChange, ObservedRegistry } from '../state/observed.js';
import type { ProgramStore } from '../state/store.js';
import type { DesiredChange } from './program-controller.js';

/**
 * Connects the two change feeds to the manager: committed store writes (desired state) and
 * observed-state changes; the start of a daemon shutdown wakes every program on every loop.
 */
export function bindProgramFeeds(manager: ControllerManager<string, DesiredChange, ObservedChange>, store: ProgramStore, observed: ObservedRegistry): () => void {
  const offs = [
    store.onChange((ids, configs) => manager.desiredChanged({ ids, configs })),
    observed.subscribe((id, next, prev) => manager.observedChanged({ id, prev, next })),
    observed.onShutdown(() => manager.enqueueEverywhere(new Set([...store.list().map((r) => r.id), ...observed.ids()]))),
  ];
  return () => offs.forEach((off) => off());
}
