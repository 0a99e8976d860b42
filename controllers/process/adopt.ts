import type { RuntimeRecord } from '../../state/runtime-store.js';
import type { ProgramProcess } from '../os/port.js';

/** A process to re-adopt for a program, with what is known of it. */
export interface Adoption {
  pid: number;
  startTime: number;
  /** Unix ms; from the runtime record, or estimated by the caller. */
  startedAt: number | null;
  stopsecs: number | null;
}

export interface AdoptionPlan {
  adopt: Map<string, Adoption>;
  /** Processes to end: hooks and probes of a dead daemon, and extra copies of one program. */
  strays: ProgramProcess[];
  /** Program processes of ids the store does not know (left alone, reported). */
  unknown: ProgramProcess[];
}

/**
 * Decides which surviving processes belong to which program at start-up. A runtime record whose
 * pid and start time still match wins; otherwise the oldest process the OS scan found for the
 * program (a record is written behind the spawn, so a crash can beat it to the disk). Every other
 * process of the same program is a stray duplicate. Pure.
 */
export function planAdoption(records: Map<string, RuntimeRecord>, found: ProgramProcess[], known: (id: string) => boolean): AdoptionPlan {
  const adopt = new Map<string, Adoption>();
  const strays: ProgramProcess[] = [];
  const unknown: ProgramProcess[] = [];
  const programs = new Map<string, ProgramProcess[]>();
  for (const p of found) {
    if (p.role === 'hook' || p.role === 'probe') strays.push(p);
    else if (p.role === 'program') programs.set(p.programId, [...(programs.get(p.programId) ?? []), p]);
  }
  for (const [id, candidates] of programs) {
    if (!known(id)) {
      unknown.push(...candidates);
      continue;
    }
    const record = records.get(id);
    const byRecord = record && candidates.find((c) => c.pid === record.pid && c.startTime === record.startTime);
    const chosen = byRecord ?? [...candidates].sort((a, b) => a.startTime - b.startTime)[0];
    adopt.set(id, {
      pid: chosen.pid,
      startTime: chosen.startTime,
      startedAt: byRecord ? record.startedAt : null,
      stopsecs: byRecord ? record.stopsecs : null,
    });
    strays.push(...candidates.filter((c) => c !== chosen));
  }
  return { adopt, strays, unknown };
}
