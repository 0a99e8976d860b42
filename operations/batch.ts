import { SvcError } from '../state/errors.js';
import type { ActionOutcome, ProgramActions } from './actions.js';
import type { ProgramRecord } from '../state/program.js';
import type { ProgramStore } from '../state/store.js';
import type { Departing, DepartingPrograms } from '../state/departing.js';

export const BATCH_ACTIONS = ['Start', 'Stop', 'Restart', 'Reload', 'Remove', 'Signal'] as const;
export type BatchActionType = (typeof BATCH_ACTIONS)[number];

/** A checked batch request (api/routes/batch.ts parses the body into this). */
export interface BatchRequest {
  target_ids?: string[];
  group_name?: string;
  select_all?: boolean;
  action: { type: BatchActionType; payload: { force?: boolean; signal?: string } | null };
}

/**
 * Runs one action over the selected programs. Unknown targets are reported, not fatal: every
 * target gets its own outcome.
 */
export async function runBatch(
  req: BatchRequest,
  store: ProgramStore,
  actions: ProgramActions,
  departing?: Pick<DepartingPrograms, 'get'>,
): Promise<{ action: BatchActionType; results: ActionOutcome[] }> {
  const missing: ActionOutcome[] = [];
  const gone: Departing[] = [];
  const selected = new Map<string, ProgramRecord>();
  const all = store.list();
  if (req.select_all) for (const r of all) selected.set(r.id, r);
  if (req.group_name !== undefined) for (const r of all) if (r.config.group_name === req.group_name) selected.set(r.id, r);
  for (const id of req.target_ids ?? []) {
    const key = id.toLowerCase();
    const record = store.get(key);
    const leaving = record ? undefined : departing?.get(key);
    if (record) selected.set(record.id, record);
    else if (leaving && req.action.type === 'Remove') gone.push(leaving);
    else if (leaving) missing.push({ id: leaving.record.id, name: leaving.record.config.name, ok: false, status: 'Stopping', pid: leaving.pid, error: removedError(leaving) });
    else missing.push({ id, name: '', ok: false, error: `program '${id}' not found` });
  }
  const records = [...selected.values()];
  const force = req.action.payload?.force === true;
  // A removal already under way is waited for again, or forced (an interrupted `svc rm`).
  const [results, ended] = await Promise.all([perform(req, records, actions), Promise.all(gone.map((d) => actions.endDeparting(d, force)))]);
  return { action: req.action.type, results: [...results, ...ended, ...missing] };
}

/** What an action other than a removal says of a program removed whose process still stops. */
export function removedError(d: Departing): string {
  return `program '${d.record.config.name}' was removed; its process (pid ${d.pid}) is still stopping: svc rm --force ${d.record.config.name} (DELETE with force=true) ends it now`;
}

/** The existing programs a batch selects (ids, group, all); unknown ids are left out. */
export function batchTargets(req: BatchRequest, all: ProgramRecord[]): ProgramRecord[] {
  const ids = new Set((req.target_ids ?? []).map((id) => id.toLowerCase()));
  return all.filter((r) => req.select_all === true || (req.group_name !== undefined && r.config.group_name === req.group_name) || ids.has(r.id));
}

async function perform(req: BatchRequest, records: ProgramRecord[], actions: ProgramActions): Promise<ActionOutcome[]> {
  if (records.length === 0) return [];
  switch (req.action.type) {
    case 'Start':
      return actions.start(records);
    case 'Stop':
      return actions.stop(records, req.action.payload?.force === true);
    case 'Restart':
      return actions.restart(records);
    case 'Reload':
      return actions.reload(records);
    case 'Signal':
      return actions.signal(records, req.action.payload?.signal);
    case 'Remove':
      return removeTogetherOrEach(records, actions, req.action.payload?.force === true);
  }
}

/** Removes the whole set at once (so dependants may go together); on refusal, one by one. */
async function removeTogetherOrEach(records: ProgramRecord[], actions: ProgramActions, force: boolean): Promise<ActionOutcome[]> {
  try {
    return await actions.remove(records, force);
  } catch (err) {
    // Only a refusal (a dependant outside the set) falls back; any other failure is the answer.
    if (!(err instanceof SvcError && err.code === 'SVC_INVALID')) throw err;
    const out: ActionOutcome[] = [];
    for (const r of records) {
      try {
        out.push(...(await actions.remove([r], force)));
      } catch (err) {
        out.push({ id: r.id, name: r.config.name, ok: false, error: (err as Error).message });
      }
    }
    return out;
  }
}
