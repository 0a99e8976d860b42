import type { ActionOutcome, WatchProgram } from '../../../api/wire.js';
import { DONE, type Message, type PendingAction, type UiState } from './model.js';
import { nextSortColumn } from './sort.js';
import { activeFilter, selectedIndex, visiblePrograms, windowTop } from './view.js';

export type UiEvent =
  | { type: 'programs'; programs: WatchProgram[] }
  | { type: 'program'; program: WatchProgram }
  | { type: 'removed'; id: string }
  | { type: 'disconnected'; error: string; retryMs: number }
  | { type: 'move'; by: number; height: number }
  | { type: 'toggle-mark' }
  | { type: 'clear-marks' }
  | { type: 'sort-next' }
  | { type: 'sort-reverse' }
  | { type: 'filter-open' }
  | { type: 'filter-type'; text: string }
  | { type: 'filter-erase' }
  | { type: 'filter-apply' }
  | { type: 'filter-clear' }
  | { type: 'ask'; pending: PendingAction; mode: 'confirm' | 'signal' }
  | { type: 'confirmed' }
  | { type: 'signal-move'; by: number }
  | { type: 'cancel' }
  | { type: 'help' }
  | { type: 'log-scroll'; by: number; max: number }
  | { type: 'log-pause' }
  | { type: 'event-type-next'; count: number }
  | { type: 'message'; message: Message | null }
  | { type: 'done'; outcomes: ActionOutcome[]; verb: keyof typeof DONE };

/** Every state change of the dashboard; pure, so it is tested without a terminal. */
export function reduce(s: UiState, e: UiEvent): UiState {
  switch (e.type) {
    case 'programs': {
      const ids = new Set(e.programs.map((p) => p.id));
      const marks = new Set([...s.marks].filter((id) => ids.has(id)));
      const reconnected = !s.connection.ok;
      return {
        ...s,
        programs: e.programs,
        selectedId: survivor(s, ids),
        loaded: true,
        marks: marks.size === s.marks.size ? s.marks : marks,
        connection: { ok: true },
        message: reconnected ? { kind: 'info', text: 'reconnected to svcd' } : s.message,
      };
    }
    case 'program': {
      const i = s.programs.findIndex((p) => p.id === e.program.id);
      const programs = i < 0 ? [...s.programs, e.program] : s.programs.map((p, j) => (j === i ? e.program : p));
      return { ...s, programs };
    }
    case 'removed': {
      if (!s.programs.some((p) => p.id === e.id)) return s;
      const marks = new Set(s.marks);
      marks.delete(e.id);
      const programs = s.programs.filter((p) => p.id !== e.id);
      return { ...s, programs, selectedId: survivor(s, new Set(programs.map((p) => p.id))), marks: marks.size === s.marks.size ? s.marks : marks };
    }
    case 'disconnected':
      return { ...s, connection: { ok: false, error: e.error, retryMs: e.retryMs } };
    case 'move': {
      const rows = visiblePrograms(s.programs, activeFilter(s), s.sort);
      if (rows.length === 0) return s;
      const i = Math.min(rows.length - 1, Math.max(0, selectedIndex(rows, s.selectedId) + e.by));
      return { ...s, selectedId: rows[i]?.id ?? null, top: windowTop(s.top, i, e.height, rows.length), logScroll: 0 };
    }
    case 'toggle-mark': {
      const rows = visiblePrograms(s.programs, activeFilter(s), s.sort);
      const row = rows[selectedIndex(rows, s.selectedId)];
      if (!row) return s;
      const marks = new Set(s.marks);
      if (marks.has(row.id)) marks.delete(row.id);
      else marks.add(row.id);
      return { ...s, marks };
    }
    case 'clear-marks':
      return { ...s, marks: new Set() };
    case 'sort-next':
      return { ...s, sort: { column: nextSortColumn(s.sort.column), desc: false } };
    case 'sort-reverse':
      return { ...s, sort: { ...s.sort, desc: !s.sort.desc } };
    case 'filter-open':
      return { ...s, mode: 'filter', draft: s.filter };
    case 'filter-type':
      return pinSelection({ ...s, draft: s.draft + e.text, top: 0 });
    case 'filter-erase':
      return pinSelection({ ...s, draft: s.draft.slice(0, -1) });
    case 'filter-apply':
      return pinSelection({ ...s, mode: 'normal', filter: s.draft.trim(), top: 0 });
    case 'filter-clear':
      return { ...s, mode: 'normal', filter: '', draft: '', top: 0 };
    case 'ask':
      return { ...s, mode: e.mode, pending: e.pending };
    case 'confirmed':
      return { ...s, mode: 'normal', pending: null, marks: new Set() };
    case 'signal-move':
      return { ...s, signalIndex: Math.max(0, Math.min(6, s.signalIndex + e.by)) };
    case 'cancel':
      return { ...s, mode: 'normal', pending: null };
    case 'help':
      return { ...s, mode: s.mode === 'help' ? 'normal' : 'help' };
    case 'log-scroll':
      // Held at the oldest page: PgUp past it counted on, and as many PgDn moved nothing.
      return { ...s, logScroll: Math.max(0, Math.min(e.max, s.logScroll + e.by)) };
    case 'log-pause':
      return { ...s, logPaused: !s.logPaused };
    case 'event-type-next':
      return { ...s, eventType: (s.eventType + 1) % e.count };
    case 'message':
      return { ...s, message: e.message };
    case 'done':
      return { ...s, message: outcomeMessage(e.outcomes, e.verb) };
  }
}

/**
 * The row shown as selected becomes the selection: when the filter hides the selected program
 * the first match is shown selected, and it stays selected when the filter is cleared.
 */
function pinSelection(s: UiState): UiState {
  const rows = visiblePrograms(s.programs, activeFilter(s), s.sort);
  const row = rows[selectedIndex(rows, s.selectedId)];
  return row && row.id !== s.selectedId ? { ...s, selectedId: row.id } : s;
}

/**
 * The selection once only the programs in `left` remain: the same program, or, when it is gone,
 * the row that took its place (the next one, else the one above). Falling back to the first row
 * jumped the table to its top after a remove, where the next d + y removed an unrelated program.
 */
function survivor(s: UiState, left: ReadonlySet<string>): string | null {
  if (s.selectedId === null || left.has(s.selectedId)) return s.selectedId;
  const rows = visiblePrograms(s.programs, activeFilter(s), s.sort);
  const i = rows.findIndex((p) => p.id === s.selectedId);
  if (i < 0) return s.selectedId;
  const after = rows.slice(i + 1).find((p) => left.has(p.id));
  const before = rows.slice(0, i).reverse().find((p) => left.has(p.id));
  return (after ?? before)?.id ?? null;
}

/** One line about a batch: what succeeded, and every failure with the API's reason. */
export function outcomeMessage(outcomes: ActionOutcome[], verb: keyof typeof DONE): Message {
  // ok with an error: not done yet when svcd answered ('still reloading ... the controller keeps trying'), as svc prints it.
  const ok = outcomes.filter((o) => o.ok && !o.error);
  const pending = outcomes.filter((o) => o.ok && o.error);
  const failed = outcomes.filter((o) => !o.ok);
  const parts: string[] = [];
  if (ok.length) parts.push(`${DONE[verb]} ${ok.map((o) => o.name || o.id).join(', ')}`);
  for (const p of pending) parts.push(`${p.name || p.id}: ${p.error}`);
  for (const f of failed) parts.push(`${f.name || f.id}: ${f.error ?? 'failed'}`);
  // How it was done, when that matters (a reload without a health check restarted with downtime).
  for (const o of ok) if (o.note && verb === 'Reload') parts.push(`${o.name || o.id}: ${o.note}`);
  if (parts.length === 0) parts.push('nothing to do');
  return { kind: failed.length ? 'error' : 'info', text: parts.join('; ') };
}
