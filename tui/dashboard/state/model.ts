import { SIGNALS as SIGNAL_NAMES, type SignalKey } from '../../../state/signals.js';
import { EVENT_TYPES as ALL_EVENT_TYPES, type EventType } from '../../../state/events/types.js';
import type { BatchAction, BatchActionType, WatchProgram } from '../../../api/wire.js';
import type { SortOrder } from './sort.js';
import type { Role } from '../../../state/auth/principal.js';

/** normal: table keys; filter: typing the filter; signal: picking a signal; confirm: y/n; help: overlay. */
export type Mode = 'normal' | 'filter' | 'signal' | 'confirm' | 'help';

/** An action waiting for the user's yes (or, in signal mode, for a signal). */
export interface PendingAction {
  ids: string[];
  names: string[];
  action: BatchAction;
}

export interface Message {
  kind: 'info' | 'error';
  text: string;
}

/** The link to svcd as the watch stream sees it. */
export interface Connection {
  ok: boolean;
  error?: string;
  /** Delay before the next attempt while disconnected. */
  retryMs?: number;
}

/** The signal picker offers the API's signal names, in the spec's order. */
export const SIGNALS = Object.keys(SIGNAL_NAMES) as SignalKey[];

/** The event filter cycles through every type the daemon records; null = all types. */
export const EVENT_TYPES: readonly (EventType | null)[] = [null, ...ALL_EVENT_TYPES];

/** Everything the dashboard shows that is not fetched: pure data, changed only by `reduce`. */
export interface UiState {
  programs: readonly WatchProgram[];
  /** Whether a first list has arrived. */
  loaded: boolean;
  selectedId: string | null;
  /** First row of the table window. */
  top: number;
  sort: SortOrder;
  filter: string;
  /** The filter being typed (mode 'filter'). */
  draft: string;
  marks: ReadonlySet<string>;
  mode: Mode;
  pending: PendingAction | null;
  signalIndex: number;
  /** Lines scrolled up from the newest log line (0 = follow). */
  logScroll: number;
  logPaused: boolean;
  /** Index into EVENT_TYPES (0 = all types). */
  eventType: number;
  message: Message | null;
  connection: Connection;
  /** The credential's role (GET /auth/status); null when svcd has no auth or did not say. */
  role: Role | null;
}

export const INITIAL_STATE: UiState = {
  programs: [],
  loaded: false,
  selectedId: null,
  top: 0,
  sort: { column: 'name', desc: false },
  filter: '',
  draft: '',
  marks: new Set(),
  mode: 'normal',
  pending: null,
  signalIndex: 2,
  logScroll: 0,
  logPaused: false,
  eventType: 0,
  message: null,
  connection: { ok: true },
  role: null,
};

/** Past-tense wording for messages. */
export const DONE: Record<BatchActionType, string> = {
  Start: 'started',
  Stop: 'stopped',
  Restart: 'restarted',
  Reload: 'reloaded',
  Remove: 'removed',
  Signal: 'signalled',
};
