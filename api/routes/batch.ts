import { invalid } from '../../state/errors.js';
import type { ActionOutcome } from '../../state/actions.js';
import type { ProgramRecord } from '../../state/program.js';
import type { ApiDeps } from '../deps.js';

const ACTIONS = ['Start', 'Stop', 'Restart', 'Remove', 'Signal'] as const;
type ActionType = (typeof ACTIONS)[number];

export interface BatchRequest {
  target_ids?: string[];
  group_name?: string;
  select_all?: boolean;
  action: { type: ActionType; payload: { force?: boolean; signal?: string } | null };
}

const KNOWN = new Set(['target_ids', 'group_name', 'select_all', 'action']);

/** Checks a batch body; 400 naming the field. Action types are case-insensitive. */
export function parseBatch(body: unknown): BatchRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('body: must be a JSON object');
  const b = body as Record<string, unknown>;
  for (const key of Object.keys(b)) if (!KNOWN.has(key)) throw invalid(`${key}: unknown field`);
  if (b.target_ids !== undefined && (!Array.isArray(b.target_ids) || !b.target_ids.every((t) => typeof t === 'string'))) {
    throw invalid('target_ids: must be a list of program UUIDs');
  }
  if (b.group_name !== undefined && typeof b.group_name !== 'string') throw invalid('group_name: must be a string');
  if (b.select_all !== undefined && typeof b.select_all !== 'boolean') throw invalid('select_all: must be true or false');
  if (b.target_ids === undefined && b.group_name === undefined && b.select_all !== true) {
    throw invalid('target_ids: required unless group_name or select_all is given');
  }
  const action = b.action as { type?: unknown; payload?: unknown } | undefined;
  if (typeof action !== 'object' || action === null) throw invalid('action: required, as {type, payload}');
  const type = ACTIONS.find((a) => typeof action.type === 'string' && a.toLowerCase() === action.type.toLowerCase());
  if (!type) throw invalid(`action.type: must be one of ${ACTIONS.join(', ')}`);
  const payload: unknown = action.payload ?? null;
  if (payload !== null && (typeof payload !== 'object' || Array.isArray(payload))) throw invalid('action.payload: must be an object or null');
  const p = (payload ?? {}) as Record<string, unknown>;
  if (type === 'Stop' && p.force !== undefined && typeof p.force !== 'boolean') throw invalid('action.payload.force: must be true or false');
  if (type === 'Signal' && typeof p.signal !== 'string') throw invalid('action.payload.signal: required for Signal');
  const checked = payload === null ? null : { force: p.force === true, signal: typeof p.signal === 'string' ? p.signal : undefined };
  return { ...(b as Omit<BatchRequest, 'action'>), action: { type, payload: checked } };
}

/**
 * Runs one action over the selected programs. Unknown targets are reported, not fatal: every
 * target gets its own outcome.
 */
export async function runBatch(req: BatchRequest, deps: ApiDeps): Promise<{ action: ActionType; results: ActionOutcome[] }> {
  const { store } = deps;
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
  const results = await perform(req, records, deps);
  return { action: req.action.type, results: [...results, ...missing] };
}

async function perform(req: BatchRequest, records: ProgramRecord[], deps: ApiDeps): Promise<ActionOutcome[]> {
  const { actions } = deps;
  if (records.length === 0) return [];
  switch (req.action.type) {
    case 'Start':
      return actions.start(records);
    case 'Stop':
      return actions.stop(records, req.action.payload?.force === true);
    case 'Restart':
      return actions.restart(records);
    case 'Signal':
      return actions.signal(records, req.action.payload?.signal);
    case 'Remove':
      return removeEach(records, deps);
  }
}

/** Removes the whole set at once (so dependants may go together); on refusal, one by one. */
async function removeEach(records: ProgramRecord[], deps: ApiDeps): Promise<ActionOutcome[]> {
  try {
    return await deps.actions.remove(records);
  } catch {
    const out: ActionOutcome[] = [];
    for (const r of records) {
      try {
        out.push(...(await deps.actions.remove([r])));
      } catch (err) {
        out.push({ id: r.id, name: r.config.name, ok: false, error: (err as Error).message });
      }
    }
    return out;
  }
}
