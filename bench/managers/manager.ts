import type { ManagerName } from '../report.js';

/** A program as every manager can express it: an executable with arguments, no shell. */
export interface BenchProgram {
  name: string;
  command: string;
  args: string[];
  /**
   * 'fast-restart': restart after every exit, without limit, with the smallest delay the manager
   * allows. Otherwise the manager's defaults (these programs are not expected to exit).
   */
  restart?: 'fast-restart';
}

export interface StatusQuery {
  label: string;
  run(): Promise<unknown>;
}

/** What a manager reports about one program. */
export interface ProgramState {
  name: string;
  running: boolean;
  pid: number | null;
}

/**
 * One process manager driven the way its users drive it. Each instance owns a fresh daemon with
 * its own home in a temporary directory; `stop()` ends the daemon and every program it started.
 */
export interface Manager {
  readonly name: ManagerName;
  /** Label for the report when a manager is measured in more than one way. */
  readonly variant: string;
  start(): Promise<void>;
  /** Pid of the daemon (for RSS and CPU readings). */
  daemonPid(): number;
  /**
   * Every process the manager itself is made of, daemon first (svc: svcd and svc-spawner; s6:
   * s6-svscan and one s6-supervise per program). Memory, CPU and wake-ups are summed over these.
   */
  supervisorPids?(): number[];
  /** Registers and starts the programs; resolves when the manager has accepted them all. */
  add(programs: BenchProgram[]): Promise<void>;
  /** Status of every program, through the manager's fastest client (API where there is one). */
  list(): Promise<ProgramState[]>;
  /** The full status queries measured in S4: through the manager's API and its own CLI. */
  statusQueries(): { api: StatusQuery; cli: StatusQuery };
  /** Asks the manager to stop every program; resolves when the request returns. */
  stopAll(): Promise<void>;
  stop(): Promise<void>;
}

export interface ManagerInfo {
  name: ManagerName;
  version: string;
  /** The smallest restart delay the manager enforces, in words (S3). */
  restartFloor: string;
}
