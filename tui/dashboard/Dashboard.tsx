import { Box, Text, useApp, useInput, type Key } from 'ink';
import { useCallback, useMemo, useRef } from 'react';
import type { Role } from '../../state/auth/principal.js';
import type { DashboardClient } from './client.js';
import BottomLine from './components/BottomLine.js';
import DetailPane from './components/DetailPane.js';
import EventsPane from './components/EventsPane.js';
import HelpOverlay from './components/HelpOverlay.js';
import LogPane from './components/LogPane.js';
import StatusLine from './components/StatusLine.js';
import Table from './components/Table.js';
import { useDetail } from './hooks/use-details.js';
import { useEvents } from './hooks/use-events.js';
import { useLogs } from './hooks/use-logs.js';
import { useNow } from './hooks/use-now.js';
import { useTerminalSize } from './hooks/use-terminal-size.js';
import { useUiStore } from './hooks/use-ui-store.js';
import { useWatch } from './hooks/use-watch.js';
import { MIN_ROWS, screenLayout } from './layout.js';
import { handleInput } from './state/input.js';
import type { Effect } from './state/keys.js';
import { EVENT_TYPES, INITIAL_STATE } from './state/model.js';
import { isAlive } from './state/status.js';
import { activeFilter, selectedIndex, visiblePrograms, windowTop } from './state/view.js';

/**
 * Refresh intervals; tests shorten them. The table is pushed (watch stream); events and the
 * selected detail are re-read when the table shows a change, and at these intervals otherwise.
 */
export interface Timing {
  eventsMs: number;
  detailTtlMs: number;
  /** Delay before following the logs of a newly selected program. */
  logSettleMs: number;
}

export const DEFAULT_TIMING: Timing = { eventsMs: 5000, detailTtlMs: 5000, logSettleMs: 250 };

export interface DashboardProps {
  client: DashboardClient;
  /** The credential's role, read at start (null: svcd has no auth): actions it lacks are refused before any question. */
  role?: Role | null;
  timing?: Partial<Timing>;
}

/** `svc ui`: the program table, the selected program's detail, logs and events, and actions. */
export default function Dashboard({ client, role = null, timing: overrides }: DashboardProps) {
  const timing = useMemo(() => ({ ...DEFAULT_TIMING, ...overrides }), [overrides]);
  const { exit } = useApp();
  const store = useUiStore({ ...INITIAL_STATE, role });
  const { state, dispatch } = store;
  const size = useTerminalSize();
  const layout = screenLayout(size.columns, size.rows);
  // A credential svcd no longer takes ends the dashboard with svcd's answer: svc ui prints it
  // as at its start (behind a banner it was retried every 5 s for good, its hint cut off).
  const info = useWatch(client, dispatch, exit);

  const filter = activeFilter(state);
  const rows = useMemo(() => visiblePrograms(state.programs, filter, state.sort), [state.programs, filter, state.sort]);
  const index = selectedIndex(rows, state.selectedId);
  const selected = rows[index];
  const top = windowTop(state.top, Math.max(0, index), layout.tableRows, rows.length);
  const windowRows = useMemo(() => rows.slice(top, top + layout.tableRows), [rows, top, layout.tableRows]);
  const now = useNow(windowRows.flatMap((p) => (p.started_at && isAlive(p.status) ? [p.started_at] : [])));

  const detail = useDetail(client, selected, timing.detailTtlMs);
  const eventType = EVENT_TYPES[state.eventType] ?? null;
  // What records events (a status, a restart, a health verdict) is what the stream shows changing.
  const changes = useMemo(() => state.programs.map((p) => `${p.status}${p.restarts}${p.health?.healthy}`).join(), [state.programs]);
  const events = useEvents(client, eventType, Math.max(1, layout.eventRows), timing.eventsMs, changes);
  // Scrolled up, the view holds still like a pause: new lines would otherwise move what is read.
  const logs = useLogs(client, selected?.id ?? null, state.logPaused || state.logScroll > 0, timing.logSettleMs);

  const run = useCallback(
    (effect: Effect) => {
      if (effect.kind === 'quit') return exit();
      const { pending } = effect;
      dispatch({ type: 'message', message: { kind: 'info', text: `${pending.action.type.toLowerCase()}: ${pending.names.join(', ')}…` } });
      client
        .batch(pending.ids, pending.action)
        .then((outcomes) => dispatch({ type: 'done', outcomes, verb: pending.action.type }))
        .catch((err: unknown) => dispatch({ type: 'message', message: { kind: 'error', text: `${pending.action.type.toLowerCase()} failed: ${(err as Error).message}` } }));
    },
    [client, dispatch, exit],
  );

  const { tableRows, paneRows } = layout;
  const tooSmall = size.rows < MIN_ROWS;
  // Read through refs: the key handler Ink holds is replaced only after the frame is drawn.
  const tooSmallNow = useRef(tooSmall);
  tooSmallNow.current = tooSmall;
  const logLinesNow = useRef(0);
  logLinesNow.current = logs.lines.length;
  const onInput = useCallback(
    (input: string, key: Key) => {
      // Nothing is drawn but the notice: a key must not open a prompt that cannot be seen.
      if (tooSmallNow.current && input !== 'q' && !(key.ctrl && input === 'c')) return;
      const result = handleInput(store.get(), input, key, { tableRows, logRows: paneRows - 1, logLines: logLinesNow.current, eventTypes: EVENT_TYPES.length });
      store.set(result.state);
      for (const effect of result.effects) run(effect);
    },
    [store, run, tableRows, paneRows],
  );
  useInput(onInput);

  const position = rows.length ? `${top + 1}-${top + windowRows.length} of ${rows.length}` : state.loaded ? '0 of 0' : 'loading…';
  // Before the first list, an empty table is not "no programs": svcd has not answered yet.
  const empty = !state.loaded ? (state.connection.ok ? 'loading…' : 'not connected to svcd yet') : state.programs.length > 0 ? 'no program matches the filter' : 'no programs';
  if (tooSmall) {
    return (
      <Text wrap="truncate">{`svc ui: the terminal is ${size.rows} rows high; it needs ${MIN_ROWS} (q quits)`}</Text>
    );
  }
  return (
    <Box flexDirection="column" width={size.columns} height={size.rows - 1}>
      <StatusLine info={info} connection={state.connection} programs={state.programs} filter={filter} marked={state.marks.size} />
      <Table rows={windowRows} height={layout.tableRows} width={size.columns} selectedId={selected?.id ?? null} marks={state.marks} sort={state.sort} now={now} position={position} empty={empty} />
      {state.mode === 'help' ? (
        <HelpOverlay height={layout.paneRows} />
      ) : (
        <Box height={layout.paneRows}>
          <Box flexDirection="column" width={layout.leftWidth}>
            <DetailPane program={selected} detail={detail} height={layout.detailRows} width={layout.leftWidth} />
            {layout.eventRows > 0 ? <EventsPane events={events} type={eventType} height={layout.eventRows} width={layout.leftWidth} /> : null}
          </Box>
          <Box marginLeft={1}>
            <LogPane name={selected?.name} view={logs} scroll={state.logScroll} paused={state.logPaused} height={layout.paneRows} width={layout.rightWidth} />
          </Box>
        </Box>
      )}
      <BottomLine state={state} />
    </Box>
  );
}
