/** Signals users may send (spec: hup, int, term, kill, quit, usr1, usr2), by their API names. */
export const SIGNALS = { hup: 'SIGHUP', int: 'SIGINT', term: 'SIGTERM', kill: 'SIGKILL', quit: 'SIGQUIT', usr1: 'SIGUSR1', usr2: 'SIGUSR2' } as const;
export type SignalName = (typeof SIGNALS)[keyof typeof SIGNALS];
export type SignalKey = keyof typeof SIGNALS;

export function isSignalKey(value: unknown): value is SignalKey {
  return typeof value === 'string' && Object.hasOwn(SIGNALS, value.toLowerCase());
}

/**
 * Delivers a one-shot signal to a program's process group. Signals are not desired state, so
 * views reach the process controller through this narrow interface (wired in bin/svcd.ts).
 * Returns false when the program has no live process.
 */
export interface Signaller {
  signal(id: string, signal: SignalName): boolean;
}
