import type { RuntimeRecord } from '../../state/runtime-store.js';
import type { ProcessHandle, Recovered, RecoveredProcess } from '../os/port.js';

/** Who owns a program id now: the process controller (with its stopsecs), cron, or nobody. */
export type Owner = { kind: 'process'; stopsecs: number } | { kind: 'cron' } | null;

export interface AdoptionInput {
  /** Runtime records (`run:<id>`) as the previous daemon persisted them. */
  records: Map<string, RuntimeRecord>;
  /** What the OS port kept (the spawner's live children and missed exits, by tag = program id). */
  recovered: Recovered;
  owner: (id: string) => Owner;
}

export interface AdoptionPlan {
  /** Hand each to ProcessController.adopt, and persist it (some are rebuilt from the spawner's list). */
  adopt: Map<string, RuntimeRecord>;
  /** Runtime records to delete. */
  clear: string[];
  /** Processes no program may keep (a deleted program's, a second copy of one): SIGKILL their group. */
  kill: ProcessHandle[];
}

const newestFirst = (a: RecoveredProcess, b: RecoveredProcess) => b.startTime - a.startTime || b.pid - a.pid;

/**
 * Boot-time re-adoption, so that after any crash each program has at most one process and every
 * process is some program's. The spawner's tagged list covers the window in which a process was
 * spawned but its runtime record not yet written; a record still wins when its process lives.
 * An exited process is adopted too: watchAdopted then reports its real exit, and the restart
 * policy judges it. Untagged processes (hooks, probes) and cron runs end on their own.
 */
export function planAdoption(input: AdoptionInput): AdoptionPlan {
  const plan: AdoptionPlan = { adopt: new Map(), clear: [], kill: [] };
  const live = groupByTag(input.recovered.live);
  const exited = groupByTag(input.recovered.exited);
  const ids = new Set([...input.records.keys(), ...live.keys(), ...exited.keys()]);
  for (const id of ids) {
    const record = input.records.get(id);
    const owner = input.owner(id);
    const alive = (live.get(id) ?? []).sort(newestFirst);
    if (owner?.kind !== 'process') {
      if (record) plan.clear.push(id);
      if (!owner) plan.kill.push(...alive); // the program was deleted: nothing may keep running for it
      continue;
    }
    const rebuild = (p: RecoveredProcess): RuntimeRecord => ({ pid: p.pid, startTime: p.startTime, startedAt: p.startedAt, stopsecs: owner.stopsecs });
    const recordLives = record ? alive.find((p) => p.pid === record.pid && p.startTime === record.startTime) : undefined;
    const keep = recordLives ?? alive[0];
    if (keep) {
      plan.adopt.set(id, recordLives ? record! : rebuild(keep));
      plan.kill.push(...alive.filter((p) => p !== keep));
    } else if (record) {
      plan.adopt.set(id, record); // exited while we were down, or started by child_process: adopt checks
    } else {
      const last = (exited.get(id) ?? []).sort(newestFirst)[0];
      if (last) plan.adopt.set(id, rebuild(last));
    }
  }
  return plan;
}

function groupByTag<T extends RecoveredProcess>(list: T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const p of list) {
    if (!p.tag) continue;
    const group = out.get(p.tag);
    if (group) group.push(p);
    else out.set(p.tag, [p]);
  }
  return out;
}
