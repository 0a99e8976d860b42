import { pidAlive, pidsWithEnv } from './proc.js';

/**
 * Everything the bench starts carries SVC_BENCH_RUN=<this run> in its environment (managers pass
 * their environment on to their programs), so that cleanup can find every process by pid, even
 * those a manager started and never reported, and never touch anyone else's.
 */
export const RUN_KEY = 'SVC_BENCH_RUN';
export const RUN_ID = `${process.pid}-${Date.now()}`;
process.env[RUN_KEY] = RUN_ID;

const hooks = new Set<() => Promise<void> | void>();

/** Registers a graceful teardown (stop a manager's daemon); returns a function that unregisters it. */
export function onCleanup(hook: () => Promise<void> | void): () => void {
  hooks.add(hook);
  return () => hooks.delete(hook);
}

/** SIGKILLs every live process of this run. Returns how many were still there. */
export function killRunProcesses(): number {
  const pids = pidsWithEnv(RUN_KEY, RUN_ID).filter(pidAlive);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
  return pids.length;
}

/** Runs the registered teardowns (each bounded in time), then kills whatever of this run is left. */
export async function cleanupAll(): Promise<void> {
  for (const hook of [...hooks].reverse()) {
    hooks.delete(hook);
    await Promise.race([Promise.resolve().then(hook).catch(() => undefined), new Promise((r) => setTimeout(r, 10_000))]);
  }
  killRunProcesses();
}

/** On SIGINT/SIGTERM: clean up, then exit 130/143. A second signal kills the leftovers at once. */
export function installSignalHandlers(log: (msg: string) => void): void {
  let interrupted = false;
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    process.on(signal, () => {
      if (interrupted) {
        killRunProcesses();
        process.exit(code);
      }
      interrupted = true;
      log(`${signal}: cleaning up the processes this run started`);
      void cleanupAll().finally(() => process.exit(code));
    });
  }
}
