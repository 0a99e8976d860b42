import { SvcError } from '../state/errors.js';
import type { ActionOutcome, ProgramActions } from './actions.js';
import type { ProgramRecord } from '../state/program.js';
import type { ProgramStore } from '../state/store.js';

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
export async function runBatch(req: BatchRequest, store: ProgramStore, actions: ProgramActions): Promise<{ action: BatchActionType; results: ActionOutcome[] }> {
  const missing: ActionOutcome[] = [];
  const selected = new Map<string, ProgramRecord>();
  const all = store.list();
  if (req.select_all) for (const r of all) selected.set(r.id, r);
  if (req.group_name !== undefined) for (const r of all) if (r.config.group_name === req.group_name) selected.set(r.id, r);
  for (const id of req.target_ids ?? []) {
    const record = store.get(id.toLowerCase());
    if (record) selected.set(record.id, record);
    else missing.push({ id, name: '', ok: false, error: `program '${id}' not found` });
  }
  const records = [...selected.values()];
  const results = await perform(req, records, actions);
  return { action: req.action.type, results: [...results, ...missing] };
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
