import type { RuntimeRecord, StopInProgress } from '../../state/runtime-store.js';
import type { ProgramProcess } from '../os/port.js';

/** A process that may belong to a program at start-up; `exited`: it ended while no daemon watched, and the OS port kept its exit. */
export type Candidate = ProgramProcess & { exited?: boolean };

/** A process to re-adopt for a program, with what is known of it. */
export interface Adoption {
  pid: number;
  startTime: number;
  /** Unix ms; from the runtime record, or the OS's estimate, or null (the caller uses now). */
  startedAt: number | null;
  stopsecs: number | null;
  /** A stop the previous daemon had begun (from the runtime record): its deadline is kept. */
  stopping: StopInProgress | null;
}

export interface AdoptionPlan {
  adopt: Map<string, Adoption>;
  /** Processes to end: hooks and probes of a dead daemon, extra copies of one program, and the processes of programs that no longer exist. */
  strays: ProgramProcess[];
  /** Processes of quarantined programs (their record does not validate): left alone, neither supervised nor ended. */
  untouched: ProgramProcess[];
}

/** Who a program id belongs to at start-up; 'quarantined': stored, but its record does not validate. */
export type Owner = 'process' | 'cron' | 'quarantined' | null;

/**
 * Decides which surviving processes belong to which program at start-up, so that after any
 * crash each program has at most one process and every process is some program's. Live
 * candidates win over kept exits; among live ones the runtime record's process wins, else the
 * oldest (a record is written behind the spawn, so a crash can beat it to the disk). With no
 * live process, a kept exit is adopted so that its real exit code is judged by the restart
 * policy. Cron runs are the cron controller's. Pure.
 */
export function planAdoption(records: Map<string, RuntimeRecord>, found: Candidate[], owns: (id: string) => Owner): AdoptionPlan {
  const adopt = new Map<string, Adoption>();
  const strays: ProgramProcess[] = [];
  const untouched: ProgramProcess[] = [];
  const programs = new Map<string, Candidate[]>();
  for (const p of found) {
    if (p.role === 'hook' || p.role === 'probe') {
      if (!p.exited) strays.push(p);
    } else if (owns(p.programId) === 'quarantined') {
      if (!p.exited) untouched.push(p); // the operator decides (svc storage); it may be a service people rely on
    } else if (owns(p.programId) === null) {
      if (!p.exited) strays.push(p); // its program was deleted: nothing may keep running for it
    } else if (p.role === 'program' && owns(p.programId) === 'process') {
      programs.set(p.programId, [...(programs.get(p.programId) ?? []), p]);
    }
  }
  for (const [id, candidates] of programs) {
    const record = records.get(id);
    const matches = (c: Candidate) => record !== undefined && c.pid === record.pid && c.startTime === record.startTime;
    const live = candidates.filter((c) => !c.exited).sort((a, b) => a.startTime - b.startTime);
    const ended = candidates.filter((c) => c.exited).sort((a, b) => b.startTime - a.startTime);
    const chosen = live.find(matches) ?? live[0] ?? ended.find(matches) ?? ended[0];
    const byRecord = matches(chosen);
    adopt.set(id, {
      pid: chosen.pid,
      startTime: chosen.startTime,
      startedAt: byRecord ? record!.startedAt : (chosen.startedAtMs ?? null),
      stopsecs: byRecord ? record!.stopsecs : null,
      stopping: byRecord ? (record!.stopping ?? null) : null,
    });
    strays.push(...live.filter((c) => c !== chosen));
  }
  return { adopt, strays, untouched };
}
