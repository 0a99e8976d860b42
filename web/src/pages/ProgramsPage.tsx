import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { ActionType } from '../api/types.js';
import { useServices } from '../app/context.js';
import { useFeed } from '../app/hooks.js';
import { useActions } from '../app/use-actions.js';
import { AddProgramDialog } from '../components/AddProgramDialog.js';
import { ProgramTable } from '../components/ProgramTable.js';
import { moveCursor, tableCommand } from '../logic/keys.js';
import { shortTime } from '../logic/format.js';
import { allowedActions, may } from '../logic/permissions.js';
import { prune, selectRange, toggle, toggleAll } from '../logic/selection.js';
import { toggleSort, toneCounts, visibleRows, type SortOrder, type ToneFilter } from '../logic/table.js';

const CHIPS: { tone: ToneFilter; label: string }[] = [
  { tone: 'all', label: 'All' },
  { tone: 'bad', label: 'Failing' },
  { tone: 'busy', label: 'Changing' },
  { tone: 'good', label: 'Running' },
  { tone: 'idle', label: 'Stopped' },
];

const ACTIONS: ActionType[] = ['Start', 'Stop', 'Restart', 'Reload', 'Signal', 'Remove'];

/** The program table with its filter, status chips, marks and actions. */
export function ProgramsPage() {
  const { feed, role } = useServices();
  const state = useFeed(feed);
  const [text, setText] = useState('');
  const [tone, setTone] = useState<ToneFilter>('all');
  const [sort, setSort] = useState<SortOrder>({ column: 'name', desc: false });
  const [markedRaw, setMarked] = useState<ReadonlySet<string>>(new Set());
  const [cursor, setCursor] = useState<string | null>(null);
  const [anchor, setAnchor] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const filterBox = useRef<HTMLInputElement>(null);
  const actions = useActions((type) => {
    if (type === 'Remove') setMarked(new Set());
  });
  // Only what the role may do (docs/security.md): an operator may add, start and stop, not remove.
  const canAdd = may(role, 'program.create');
  const allowed = allowedActions(role, ACTIONS);

  // Rows kept from before svcd stopped answering: their states may no longer be true.
  const stale = state.loaded && state.error !== null;
  const rows = useMemo(() => visibleRows(state.rows, { text, tone }, sort), [state.rows, text, tone, sort]);
  const counts = useMemo(() => toneCounts(state.rows), [state.rows]);
  const marked = useMemo(() => prune(markedRaw, new Set(state.rows.map((r) => r.id))), [markedRaw, state.rows]);
  const markedRows = state.rows.filter((r) => marked.has(r.id));
  const cursorRow = rows.find((r) => r.id === cursor) ?? null;
  // Actions apply to the marked programs, or to the cursor row when nothing is marked.
  const targets = markedRows.length ? markedRows : cursorRow ? [cursorRow] : [];

  const onKey = (e: KeyboardEvent<HTMLDivElement>, page: number) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const cmd = tableCommand(e.key, page);
    if (!cmd) return;
    e.preventDefault();
    const index = rows.findIndex((r) => r.id === cursor);
    switch (cmd.kind) {
      case 'move':
      case 'edge': {
        const next = rows[moveCursor(index, cmd, rows.length)];
        if (next) setCursor(next.id);
        return;
      }
      case 'mark':
        if (cursorRow) setMarked(toggle(marked, cursorRow.id));
        else if (rows[0]) setCursor(rows[0].id);
        return;
      case 'markAll':
        setMarked(toggleAll(marked, rows.map((r) => r.id)));
        return;
      case 'clear':
        setMarked(new Set());
        return;
      case 'open':
        if (cursorRow) location.hash = `#/programs/${cursorRow.id}`;
        return;
      case 'filter':
        filterBox.current?.focus();
        return;
      case 'add':
        if (canAdd) setAdding(true);
        return;
      case 'action':
        if (allowed.includes(cmd.action)) actions.ask(cmd.action, targets);
        return;
      default:
        return;
    }
  };

  return (
    <section className="page programs-page" aria-labelledby="programs-title">
      <div className="toolbar">
        <h1 id="programs-title">Programs</h1>
        <input
          ref={filterBox}
          type="search"
          className="filter"
          placeholder="Filter by name, source or status  ( / )"
          aria-label="Filter programs"
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape' || e.key === 'Enter') document.querySelector<HTMLElement>('.table-box')?.focus();
          }}
        />
        <div className="chips" role="group" aria-label="Show by status">
          {CHIPS.map((c) => (
            <button key={c.tone} type="button" className={`chip tone-${c.tone}`} aria-pressed={tone === c.tone} onClick={() => setTone(c.tone)}>
              {c.label} <span className="count">{counts[c.tone]}</span>
            </button>
          ))}
        </div>
        {canAdd && (
          <button type="button" className="primary" onClick={() => setAdding(true)}>
            Add program
          </button>
        )}
      </div>
      {allowed.length > 0 && (
        <div className="action-bar" role="toolbar" aria-label="Actions on marked programs">
          <span className="muted">{markedRows.length ? `${markedRows.length} marked` : cursorRow ? `current: ${cursorRow.name}` : 'mark programs to act on them'}</span>
          {allowed.map((a) => (
            <button key={a} type="button" className={a === 'Remove' ? 'danger' : undefined} disabled={targets.length === 0} onClick={() => actions.ask(a, targets)}>
              {a === 'Signal' ? 'Signal…' : a}
            </button>
          ))}
          {markedRows.length > 0 && (
            <button type="button" onClick={() => setMarked(new Set())}>
              Clear marks
            </button>
          )}
        </div>
      )}
      {actions.report && (
        <p className={`report ${actions.report.kind}`} role="status">
          {actions.report.text}{' '}
          <button type="button" className="link" onClick={actions.clearReport} aria-label="Dismiss">
            ×
          </button>
        </p>
      )}
      {state.error && (
        <p className="error-note" role="alert">
          {state.loaded ? `Not refreshed: ${state.error} (retrying)` : state.error}
        </p>
      )}
      {!state.loaded && !state.error ? (
        <p className="muted">Loading programs…</p>
      ) : (
        <ProgramTable
          rows={rows}
          total={state.rows.length}
          marked={marked}
          cursor={cursorRow?.id ?? null}
          sort={sort}
          now={state.at || Date.now()}
          stale={stale}
          onSort={(c) => setSort((s) => toggleSort(s, c))}
          onMark={(id, range) => {
            setMarked(range ? selectRange(marked, rows.map((r) => r.id), anchor, id) : toggle(marked, id));
            setAnchor(id);
          }}
          onMarkAll={() => setMarked(toggleAll(marked, rows.map((r) => r.id)))}
          onCursor={setCursor}
          onKey={onKey}
        />
      )}
      <p className="muted small">
        {rows.length} of {state.rows.length} programs · {stale ? `not live: as svcd last sent them at ${shortTime(state.liveAt, state.at)}` : 'live from svcd'} · press ? for keys
      </p>
      {actions.dialog}
      {adding && (
        <AddProgramDialog
          onClose={() => setAdding(false)}
          onAdded={(id) => {
            setAdding(false);
            setCursor(id);
          }}
        />
      )}
    </section>
  );
}
