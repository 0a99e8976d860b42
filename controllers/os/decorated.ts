import type { ExitInfo, OsPort, ProcessHandle, SpawnSpec } from './port.js';

/**
 * Changes how a process is started before it starts: the isolation plugin places it into its
 * cgroup (no escape window), a spawner could add rlimits. Gets the spec and returns the spec to
 * start; throwing refuses the spawn (judged like any spawn failure). Runs for programs, cron
 * runs, hooks and probes alike, in registration order.
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
  return Object.assign(Object.create(os) as OsPort, {
    spawn: async (spec: SpawnSpec, onExit: (exit: ExitInfo) => void): Promise<ProcessHandle> => os.spawn(await decorate(spec), onExit),
    runToCompletion: async (spec: SpawnSpec, timeoutMs: number) => os.runToCompletion(await decorate(spec), timeoutMs),
  });
}
