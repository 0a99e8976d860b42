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
  /** Supplementary groups, set together with uid/gid (the user's, as initgroups sets them); absent: none. */
  groups?: number[];
  /** Files opened O_APPEND and handed to the child as fd 1 and 2. */
  stdoutPath: string;
  stderrPath: string;
  /** A file opened read-only as fd 0 (a reaction's event record); absent: /dev/null. */
  stdinPath?: string;
  /**
   * Who the process belongs to (the program id). The spawner keeps it with the child, so a
   * daemon that died before recording the pid still learns whose process it is (`recover`).
   */
  tag?: string;
  /**
   * A cgroup v2 directory the process joins before its first instruction (the isolation
   * plugin sets it; docs/isolation.md). A process that cannot join it does not start.
   */
  cgroup?: string;
  /**
   * The soft open-files limit (RLIMIT_NOFILE) the process starts with, capped at the hard limit,
   * which stays; absent: svcd's own (Node raised it to the hard limit). `[supervisor] limit_nofile`.
   */
  openFilesLimit?: number;
}

/** A command run for its result, with fds 1 and 2 captured instead of logged (exec probes). */
export type CaptureSpec = Omit<SpawnSpec, 'stdoutPath' | 'stderrPath'>;

/** At most this many bytes of a captured command's output are kept (the rest is read and dropped). */
export const CAPTURE_LIMIT = 512;

/** How a process ended: data, not an exception. */
export interface ExitInfo {
  code: number | null;
  signal: number | null;
  /** Set when the process never started (spawn failure). */
  error?: string;
  /** Resources the process used, when the port knows them (the spawner reports wait4's rusage). */
  usage?: ExitUsage;
  /** What else is known about the end, in words (the isolation plugin: an OOM kill). */
  note?: string;
  /** Unix ms when it ended, where the port knows (the spawner, also for an exit kept while svcd was away); else it is when the exit is seen. */
  endedAt?: number;
}

export interface ExitUsage {
  userMs: number;
  systemMs: number;
  maxRssBytes: number;
}

/** A process an earlier daemon started, as the spawner kept it. */
export interface RecoveredProcess extends ProcessHandle {
  /** SpawnSpec.tag of its spawn ('' when none was given). */
  tag: string;
  /** Wall-clock ms when it was spawned. */
  startedAt: number;
}

/**
 * What survived the previous daemon: its processes still running, and those that ended while
 * no daemon was connected, with their real exit.
 */
export interface Recovered {
  live: RecoveredProcess[];
  exited: (RecoveredProcess & { exit: ExitInfo })[];
}

export interface ProcessHandle {
  pid: number;
  /** Start time from /proc/<pid>/stat (clock ticks since boot): with pid, identifies the process. */
  startTime: number;
}

/** What a process svc started is, from the environment svc gave it (docs/operations.md). */
export type ProcessRole = 'program' | 'cron' | 'hook' | 'probe';

/** A live process that svc started (found by `findProgramProcesses`). */
export interface ProgramProcess {
  pid: number;
  startTime: number;
  programId: string;
  role: ProcessRole;
  /** Unix ms the process started (from its start time and the boot time), when known. */
  startedAtMs?: number;
  /** The schedule slot of a cron run (SVC_CRON_SLOT), as given to it. */
  cronSlot?: string;
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
  /** The user's supplementary groups (the /etc/group rows listing it, or getent initgroups for an NSS user), besides its primary group. */
  groups: number[];
}

/**
 * The operating system as the controllers see it. Production uses linux.ts; unit tests use
 * fake.ts. Every program runs in its own session and process group (pgid = pid).
 */
export interface OsPort {
  /**
   * Starts a process in a new session; rejects with a readable message if it cannot start.
   * `onExit` is called once, in a later task than the one that settles the returned promise, so
   * a caller that awaits it (through any number of awaits) has the handle when its process ends.
   */
  spawn(spec: SpawnSpec, onExit: (exit: ExitInfo) => void): Promise<ProcessHandle>;
  /**
   * Runs a short command (a hook) in its own process group with output to the spec's log files
   * and waits for it; at the timeout the group is killed and `timedOut` is set, and so it is
   * when `abort` fires first (svcd stopping: the caller knows why).
   */
  runToCompletion(spec: SpawnSpec, timeoutMs: number, abort?: AbortSignal): Promise<ExitInfo & { timedOut: boolean }>;
  /** Sends a signal to the process group led by pid (or the pid alone); a gone target is ignored. */
  signal(pid: number, signal: SignalName, group: boolean): void;
  /**
   * Runs a command with its output captured (first CAPTURE_LIMIT bytes of fds 1 and 2 together)
   * in its own process group, and waits for it; at the timeout the group is killed and `timedOut`
   * is set, and so it is when `abort` fires first (the caller no longer wants the result). Never
   * rejects: a command that cannot start resolves with `error`.
   */
  capture(spec: CaptureSpec, timeoutMs: number, abort?: AbortSignal): Promise<ExitInfo & { timedOut: boolean; output: string }>;
  /**
   * The start time of a live pid, or null when no such process exists. A process listed in
   * `recover().exited` counts as existing until watchAdopted has reported its exit (like a
   * zombie waiting for its parent), so re-adopting it yields its real exit.
   */
  startTimeOf(pid: number): number | null;
  /**
   * Every live session leader that an svcd of this `root` started (it carries SVC_PROGRAM_ID and
   * SVC_ROOT in its environment), whichever daemon started it: a previous daemon killed before
   * its runtime records reached the disk leaves no other trace of them. Processes of other svcd
   * on the host (other roots) are never returned. Used once at start-up.
   */
  findProgramProcesses(root: string): ProgramProcess[];
  /**
   * Watches a process this daemon did not start (re-adopted after a restart) until it exits.
   * For a process from `recover()` the real exit is reported (at once if it already ended);
   * for any other, the exit status is unknown (code and signal null).
   */
  watchAdopted(handle: ProcessHandle, onExit: (exit: ExitInfo) => void): () => void;
  /**
   * What the OS kept across a daemon restart: with the spawner, the previous daemon's live
   * processes (with tags) and the exits it missed. Child_process (LinuxOs) keeps nothing.
   * Call once at boot, before re-adopting; later calls return the same lists.
   */
  recover(): Promise<Recovered>;
  /** Releases the port at daemon shutdown (the spawner exits once its last child has). */
  close(): Promise<void>;
  /** cpu and memory of many pids at once; pids that are gone are left out. */
  sampleUsage(pids: number[]): Promise<Map<number, UsageSample>>;
  /**
   * Reads an env_file: a regular file of bounded size; with `as`, only if that uid/gid may read it.
   * Errors carry a short reason in `message`, never the file's contents.
   */
  readTextFile(path: string, as?: { uid: number; gid: number; groups?: number[] }): string;
  /**
   * Creates log files ahead of a program's first run, off the main thread (missing parent
   * directories too, mode 0640 like the spawner's), leaving existing ones as they are. Rejects
   * with the first failure; a spawn opens (and if need be creates) the files again anyway.
   */
  createLogFiles(paths: readonly string[]): Promise<void>;
  lookupUser(nameOrId: string | number): UserInfo | null;
  lookupGroup(nameOrId: string | number): number | null;
  /** Effective uid of the daemon. */
  uid(): number;
}
