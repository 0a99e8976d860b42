import type { SignalName } from '../../state/signals.js';

export type { SignalName };

/** Everything needed to start one process. */
export interface SpawnSpec {
  file: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  uid?: number;
  gid?: number;
  /** Files opened O_APPEND and handed to the child as fd 1 and 2. */
  stdoutPath: string;
  stderrPath: string;
}

/** How a process ended: data, not an exception. */
export interface ExitInfo {
  code: number | null;
  signal: number | null;
  /** Set when the process never started (spawn failure). */
  error?: string;
}

export interface ProcessHandle {
  pid: number;
  /** Start time from /proc/<pid>/stat (clock ticks since boot): with pid, identifies the process. */
  startTime: number;
}

export interface UsageSample {
  /** Percent of one core since the previous sample of this pid. */
  cpu: number;
  /** Resident set size, bytes. */
  memory: number;
}

export interface UserInfo {
  uid: number;
  gid: number;
  home: string;
  name: string;
}

/**
 * The operating system as the controllers see it. Production uses linux.ts; unit tests use
 * fake.ts. Every program runs in its own session and process group (pgid = pid).
 */
export interface OsPort {
  /** Starts a process in a new session; rejects with a readable message if it cannot start. */
  spawn(spec: SpawnSpec, onExit: (exit: ExitInfo) => void): Promise<ProcessHandle>;
  /**
   * Runs a short command (a hook) in its own process group with output to the spec's log files
   * and waits for it; at the timeout the group is killed and `timedOut` is set.
   */
  runToCompletion(spec: SpawnSpec, timeoutMs: number): Promise<ExitInfo & { timedOut: boolean }>;
  /** Sends a signal to the process group led by pid (or the pid alone); a gone target is ignored. */
  signal(pid: number, signal: SignalName, group: boolean): void;
  /** The start time of a live pid, or null when no such process exists. */
  startTimeOf(pid: number): number | null;
  /** Watches a process this daemon did not start (re-adopted after a restart) until it exits. */
  watchAdopted(handle: ProcessHandle, onExit: (exit: ExitInfo) => void): () => void;
  /** cpu and memory of many pids at once; pids that are gone are left out. */
  sampleUsage(pids: number[]): Promise<Map<number, UsageSample>>;
  /**
   * Reads an env_file: a regular file of bounded size; with `as`, only if that uid/gid may read it.
   * Errors carry a short reason in `message`, never the file's contents.
   */
  readTextFile(path: string, as?: { uid: number; gid: number }): string;
  lookupUser(nameOrId: string | number): UserInfo | null;
  lookupGroup(nameOrId: string | number): number | null;
  /** Effective uid of the daemon. */
  uid(): number;
}
