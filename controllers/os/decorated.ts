import type { CaptureSpec, ExitInfo, OsPort, ProcessHandle, SpawnSpec } from './port.js';

/**
 * Changes how a process is started before it starts: the isolation plugin places it into its
 * cgroup (no escape window), `[supervisor] limit_nofile` sets the open-files limit. Gets the spec and returns the spec to
 * start; throwing refuses the spawn (judged like any spawn failure). Runs for programs, cron
 * runs, hooks and exec probes alike, in registration order.
 */
export type SpawnDecorator = (spec: SpawnSpec) => SpawnSpec | Promise<SpawnSpec>;

/**
 * A decorator that also follows what became of the processes it decorated (`spawn` only):
 * `settled` once the spawn started (with its handle) or failed (null), `exited` on its exit,
 * returning the exit the caller sees (the isolation plugin adds "OOM-killed" to it).
 */
export interface SpawnHooks {
  decorate: SpawnDecorator;
  settled?(spec: SpawnSpec, handle: ProcessHandle | null): void;
  exited?(spec: SpawnSpec, handle: ProcessHandle, exit: ExitInfo): ExitInfo;
}

/** The OS port with spawn decorators in front of `spawn` and `runToCompletion`. */
export function withSpawnDecorators(os: OsPort, decorators: readonly (SpawnDecorator | SpawnHooks)[]): OsPort {
  if (decorators.length === 0) return os;
  const hooks: SpawnHooks[] = decorators.map((d) => (typeof d === 'function' ? { decorate: d } : d));
  const decorate = async (spec: SpawnSpec): Promise<SpawnSpec> => {
    let next = spec;
    for (const h of hooks) next = await h.decorate(next);
    return next;
  };
  const spawn = async (spec: SpawnSpec, onExit: (exit: ExitInfo) => void): Promise<ProcessHandle> => {
    const decorated = await decorate(spec);
    let handle: ProcessHandle | null = null;
    try {
      handle = await os.spawn(decorated, (exit) => {
        let seen = exit;
        for (const h of hooks) if (h.exited && handle) seen = h.exited(decorated, handle, seen);
        onExit(seen);
      });
      return handle;
    } finally {
      for (const h of hooks) h.settled?.(decorated, handle);
    }
  };
  const decoratedMembers: Partial<OsPort> = {
    spawn,
    runToCompletion: async (spec: SpawnSpec, timeoutMs: number, abort?: AbortSignal) => os.runToCompletion(await decorate(spec), timeoutMs, abort),
    capture: async (spec: CaptureSpec, timeoutMs: number, abort?: AbortSignal) => {
      const { stdoutPath: _out, stderrPath: _err, ...decorated } = await decorate({ ...spec, stdoutPath: '', stderrPath: '' });
      return os.capture(decorated, timeoutMs, abort);
    },
  };
  // Every other member is the port itself, called on the port (its own state stays its own).
  return new Proxy(os, {
    get(target, key, receiver) {
      if (key in decoratedMembers) return decoratedMembers[key as keyof OsPort];
      const value: unknown = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
