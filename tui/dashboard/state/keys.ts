import type { BatchAction, BatchActionType } from '../../../api/wire.js';
import { SIGNALS, type PendingAction, type UiState } from './model.js';
import { reduce, type UiEvent } from './reduce.js';
import { activeFilter, selectedIndex, visiblePrograms } from './view.js';
import { actionPermission, allows, MINIMUM_ROLE } from '../../../state/auth/roles.js';

/** The parts of Ink's `Key` the dashboard reads (so this file needs no Ink). */
export interface KeyInfo {
  upArrow?: boolean;
  downArrow?: boolean;
  leftArrow?: boolean;
  rightArrow?: boolean;
  pageUp?: boolean;
  pageDown?: boolean;
  home?: boolean;
  end?: boolean;
  return?: boolean;
  escape?: boolean;
  ctrl?: boolean;
  backspace?: boolean;
  delete?: boolean;
  tab?: boolean;
}

/** Rows available to the table and the log pane, for paging. */
export interface Layout {
  tableRows: number;
  logRows: number;
  /** Lines the log pane holds now: scrolling up stops at its oldest page. */
  logLines: number;
  eventTypes: number;
}

/** What the component must do besides showing the new state. */
export type Effect = { kind: 'quit' } | { kind: 'batch'; pending: PendingAction };

export interface KeyResult {
  state: UiState;
  effect?: Effect;
}

/** Actions that need a yes first. */
const CONFIRM: Record<string, { type: BatchActionType; force?: boolean }> = {
  x: { type: 'Stop' },
  X: { type: 'Stop', force: true },
  d: { type: 'Remove' },
};

/** The marked programs (in table order), or else the selected one. */
export function targets(s: UiState): { ids: string[]; names: string[] } {
  const rows = visiblePrograms(s.programs, activeFilter(s), s.sort);
  const chosen = s.marks.size > 0 ? s.programs.filter((p) => s.marks.has(p.id)) : [rows[selectedIndex(rows, s.selectedId)]].filter((p) => p !== undefined);
  return { ids: chosen.map((p) => p.id), names: chosen.map((p) => p.name) };
}

/** Maps one key press to the next state and, maybe, an effect. Pure. */
export function handleKey(s: UiState, input: string, key: KeyInfo, layout: Layout): KeyResult {
  if (key.ctrl && input === 'c') return { state: s, effect: { kind: 'quit' } };
  const to = (...events: UiEvent[]): KeyResult => ({ state: events.reduce(reduce, s) });
  switch (s.mode) {
    case 'filter':
      if (key.return) return to({ type: 'filter-apply' });
      if (key.escape) return to({ type: 'filter-clear' });
      if (key.backspace || key.delete) return to({ type: 'filter-erase' });
      if (input && !key.ctrl && !key.tab && !key.upArrow && !key.downArrow) return to({ type: 'filter-type', text: input });
      return { state: s };
    case 'help':
      if (input === 'q') return { state: s, effect: { kind: 'quit' } };
      return to({ type: 'help' });
    case 'confirm':
      // [y/N]: only y says yes; Enter, like any other key, takes the default, no.
      if ((input === 'y' || input === 'Y') && s.pending) return { state: reduce(s, { type: 'confirmed' }), effect: { kind: 'batch', pending: s.pending } };
      return to({ type: 'cancel' }, { type: 'message', message: { kind: 'info', text: 'cancelled' } });
    case 'signal':
      return signalKey(s, input, key);
    case 'normal':
      return normalKey(s, input, key, layout);
  }
}

function normalKey(s: UiState, input: string, key: KeyInfo, layout: Layout): KeyResult {
  const to = (...events: UiEvent[]): KeyResult => ({ state: events.reduce(reduce, s) });
  const move = (by: number) => to({ type: 'move', by, height: layout.tableRows });
  if (key.upArrow) return move(-1);
  if (key.downArrow) return move(1);
  if (key.home) return move(-Infinity);
  if (key.end) return move(Infinity);
  const oldestPage = Math.max(0, layout.logLines - layout.logRows);
  if (key.pageUp) return to({ type: 'log-scroll', by: Math.max(1, layout.logRows - 1), max: oldestPage });
  if (key.pageDown) return to({ type: 'log-scroll', by: -Math.max(1, layout.logRows - 1), max: oldestPage });
  if (key.escape) return to({ type: 'filter-clear' }, { type: 'message', message: null });
  /** What svcd would answer with a 403, said before any question: a viewer is not asked y/N to be refused. */
  const refusal = (type: BatchActionType): KeyResult | null => {
    const permission = actionPermission(type);
    if (s.role === null || allows(s.role, permission)) return null;
    const text = `${type.toLowerCase()} needs the ${MINIMUM_ROLE[permission]} role; this credential is ${s.role === 'operator' || s.role === 'admin' ? 'an' : 'a'} ${s.role}`;
    return to({ type: 'message', message: { kind: 'error', text } });
  };
  const act = (type: BatchActionType, payload: BatchAction['payload'] = null): KeyResult => {
    const refused = refusal(type);
    if (refused) return refused;
    const t = targets(s);
    if (t.ids.length === 0) return to({ type: 'message', message: { kind: 'error', text: 'no program selected' } });
    return { state: reduce(s, { type: 'message', message: null }), effect: { kind: 'batch', pending: { ...t, action: { type, payload } } } };
  };
  const ask = (type: BatchActionType, payload: BatchAction['payload'], mode: 'confirm' | 'signal'): KeyResult => {
    const refused = refusal(type);
    if (refused) return refused;
    const t = targets(s);
    if (t.ids.length === 0) return to({ type: 'message', message: { kind: 'error', text: 'no program selected' } });
    return to({ type: 'message', message: null }, { type: 'ask', mode, pending: { ...t, action: { type, payload } } });
  };
  const confirm = CONFIRM[input];
  if (confirm) return ask(confirm.type, confirm.force ? { force: true } : null, 'confirm');
  switch (input) {
    case 'q':
      return { state: s, effect: { kind: 'quit' } };
    case 's':
      return act('Start');
    case 'r':
      return act('Restart');
    case 'R':
      return act('Reload');
    case 'k':
      return ask('Signal', null, 'signal');
    case '/':
      return to({ type: 'filter-open' });
    case 'o':
      return to({ type: 'sort-next' });
    case 'O':
      return to({ type: 'sort-reverse' });
    case ' ':
      return to({ type: 'toggle-mark' }, { type: 'move', by: 1, height: layout.tableRows });
    case 'u':
      return to({ type: 'clear-marks' });
    case 'p':
      return to({ type: 'log-pause' });
    case 'e':
      return to({ type: 'event-type-next', count: layout.eventTypes });
    case '?':
      return to({ type: 'help' });
    default:
      return { state: s };
  }
}

function signalKey(s: UiState, input: string, key: KeyInfo): KeyResult {
  const to = (...events: UiEvent[]): KeyResult => ({ state: events.reduce(reduce, s) });
  if (key.escape || input === 'q') return to({ type: 'cancel' });
  if (key.upArrow || key.leftArrow) return to({ type: 'signal-move', by: -1 });
  if (key.downArrow || key.rightArrow) return to({ type: 'signal-move', by: 1 });
  const digit = Number(input);
  const index = key.return ? s.signalIndex : input >= '1' && input <= '7' ? digit - 1 : -1;
  const signal = SIGNALS[index];
  if (!signal || !s.pending) return { state: s };
  const pending: PendingAction = { ...s.pending, action: { type: 'Signal', payload: { signal } } };
  // SIGKILL cannot be caught: ask first, like stop and remove.
  if (signal === 'kill') return to({ type: 'ask', mode: 'confirm', pending });
  return { state: reduce(s, { type: 'confirmed' }), effect: { kind: 'batch', pending } };
}
