import type { CaptureSpec, ExitInfo, OsPort, ProcessHandle, SpawnSpec } from './port.js';

/**
 * Changes how a process is started before it starts: the isolation plugin places it into its
 * cgroup (no escape window), a spawner could add rlimits. Gets the spec and returns the spec to
 * start; throwing refuses the spawn (judged like any spawn failure). Runs for programs, cron
 * runs, hooks and exec probes alike, in registration order.
 */
export type SpawnDecorator = (spec: SpawnSpec) => SpawnSpec | Promise<SpawnSpec>;

/** The OS port with spawn decorators in front of `spawn` and `runToCompletion`. */
export function withSpawnDecorators(os: OsPort, decorators: readonly SpawnDecorator[]): OsPort {
  if (decorators.length === 0) return os;
  const decorate = async (spec: SpawnSpec): Promise<SpawnSpec> => {
    let next = spec;
    for (const d of decorators) next = await d(next);
    return next;
  };
  const decorated: Partial<OsPort> = {
    spawn: async (spec: SpawnSpec, onExit: (exit: ExitInfo) => void): Promise<ProcessHandle> => os.spawn(await decorate(spec), onExit),
    runToCompletion: async (spec: SpawnSpec, timeoutMs: number) => os.runToCompletion(await decorate(spec), timeoutMs),
    capture: async (spec: CaptureSpec, timeoutMs: number) => {
      const { stdoutPath: _out, stderrPath: _err, ...decorated } = await decorate({ ...spec, stdoutPath: '', stderrPath: '' });
      return os.capture(decorated, timeoutMs);
    },
  };
  // Every other member is the port itself, called on the port (its own state stays its own).
  return new Proxy(os, {
    get(target, key, receiver) {
      if (key in decorated) return decorated[key as keyof OsPort];
      const value: unknown = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
