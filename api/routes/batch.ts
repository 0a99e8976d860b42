import { invalid } from '../../state/errors.js';
import { BATCH_ACTIONS as ACTIONS, type BatchActionType, type BatchRequest } from '../../operations/batch.js';
import { SIGNALS, isSignalKey } from '../../state/signals.js';

const KNOWN = new Set(['target_ids', 'group_name', 'select_all', 'action']);
/** The payload fields each action reads (spec: Stop {force}, Signal {signal}, the others null; Remove {force} is ours). */
const PAYLOAD_FIELDS: Record<BatchActionType, readonly string[]> = { Start: [], Stop: ['force'], Restart: [], Reload: [], Remove: ['force'], Signal: ['signal'] };

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
  if (typeof action !== 'object' || action === null || Array.isArray(action)) throw invalid('action: required, as {type, payload}');
  for (const key of Object.keys(action)) if (key !== 'type' && key !== 'payload') throw invalid(`action.${key}: unknown field (an action is {type, payload})`);
  const type = ACTIONS.find((a) => typeof action.type === 'string' && a.toLowerCase() === action.type.toLowerCase());
  if (!type) throw invalid(`action.type: must be one of ${ACTIONS.join(', ')}`);
  const payload: unknown = action.payload ?? null;
  if (payload !== null && (typeof payload !== 'object' || Array.isArray(payload))) throw invalid('action.payload: must be an object or null');
  const p = (payload ?? {}) as Record<string, unknown>;
  // A field the action does not read (a misspelt `force`, `signal` on a Stop) would be ignored silently.
  const reads = PAYLOAD_FIELDS[type];
  for (const key of Object.keys(p)) {
    if (!reads.includes(key)) throw invalid(`action.payload.${key}: unknown field (${reads.length > 0 ? `${type} reads ${reads.join(', ')}` : `${type} takes no payload: null`})`);
  }
  if ((type === 'Stop' || type === 'Remove') && p.force !== undefined && typeof p.force !== 'boolean') throw invalid('action.payload.force: must be true or false');
  if (type === 'Signal') {
    const names = Object.keys(SIGNALS).join(', ');
    if (p.signal === undefined || p.signal === null) throw invalid(`action.payload.signal: is required for Signal, one of ${names}`);
    if (typeof p.signal !== 'string') throw invalid(`action.payload.signal: must be a string, one of ${names}`);
    if (!isSignalKey(p.signal)) throw invalid(`action.payload.signal: '${p.signal}' is not one of ${names}`);
  }
  const checked = payload === null ? null : { force: p.force === true, signal: typeof p.signal === 'string' ? p.signal : undefined };
  return { ...(b as Omit<BatchRequest, 'action'>), action: { type, payload: checked } };
}
