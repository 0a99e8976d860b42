import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { ProgramRow } from '../api/types.js';
import { bytes, duration, percent, shortTime } from '../logic/format.js';
import { controlOwnsKey } from '../logic/keys.js';
import { healthLabel, isAlive } from '../logic/status.js';
import type { SortColumn, SortOrder } from '../logic/table.js';
import { scrollToRow, windowRange } from '../logic/window.js';
import { StatusBadge } from './StatusBadge.js';

/** Every row is this tall (CSS `.programs tbody tr` matches), so the window is arithmetic. */
export const ROW_HEIGHT = 36;

interface Column {
  key: SortColumn;
  title: string;
  className: string;
  cell: (p: ProgramRow, now: number) => ReactNode;
}

const COLUMNS: Column[] = [
  { key: 'name', title: 'Name', className: 'c-name', cell: (p) => <a href={`#/programs/${p.id}`} title={p.name}>{p.name}</a> },
  { key: 'status', title: 'Status', className: 'c-status', cell: (p) => <StatusBadge status={p.status} removed={p.removed} /> },
  { key: 'pid', title: 'PID', className: 'c-pid num', cell: (p) => p.pid ?? '-' },
  { key: 'cpu', title: 'CPU', className: 'c-cpu num', cell: (p) => (isAlive(p.status) ? percent(p.cpu_usage) : '-') },
  { key: 'mem', title: 'Memory', className: 'c-mem num', cell: (p) => bytes(p.mem_usage) },
  { key: 'uptime', title: 'Uptime', className: 'c-uptime num', cell: (p, now) => (p.started_at && isAlive(p.status) ? duration((now - p.started_at) / 1000) : '-') },
  { key: 'restarts', title: 'Restarts', className: 'c-restarts num', cell: (p) => p.restarts },
  { key: 'health', title: 'Health', className: 'c-health', cell: (p) => healthLabel(p.status, p.check) },
  { key: 'next', title: 'Next run', className: 'c-next', cell: (p, now) => (p.next_fire_at ? shortTime(p.next_fire_at, now) : '-') },
  { key: 'source', title: 'Source', className: 'c-source', cell: (p) => <span title={p.source ?? undefined}>{p.source ?? '-'}</span> },
];

export interface ProgramTableProps {
  rows: readonly ProgramRow[];
  /** How many programs there are before filtering (0: none at all, said so). Default rows.length. */
  total?: number;
  marked: ReadonlySet<string>;
  cursor: string | null;
  sort: SortOrder;
  now: number;
  /** The rows are the last ones svcd sent before it stopped answering: shown greyed, and said so to a screen reader. */
  stale?: boolean;
  onSort: (column: SortColumn) => void;
  onMark: (id: string, range: boolean) => void;
  onMarkAll: () => void;
  onCursor: (id: string) => void;
  onKey: (e: KeyboardEvent<HTMLDivElement>, pageRows: number) => void;
}

/**
 * The program table. Only the rows in view (plus a few) are in the DOM: blank rows above and
 * below keep the scroll height, so 500 programs cost what 30 do. The scroll box takes the
 * keyboard (see logic/keys.ts) and keeps the cursor row in view.
 */
export function ProgramTable(props: ProgramTableProps) {
  const box = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(600);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => setViewport(el.clientHeight);
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  useEffect(() => {
    // Arrow keys work at once on a freshly opened page (nothing else has the focus yet).
    if (document.activeElement === document.body) box.current?.focus({ preventScroll: true });
  }, []);
  const cursorIndex = props.rows.findIndex((r) => r.id === props.cursor);
  useEffect(() => {
    const el = box.current;
    if (!el || cursorIndex < 0) return;
    // The header row is sticky and covers the first row's height.
    const next = scrollToRow(el.scrollTop, el.clientHeight - ROW_HEIGHT, ROW_HEIGHT, cursorIndex);
    if (next !== el.scrollTop) el.scrollTop = next;
    // When the cursor moves, not when its row does: a program added or removed elsewhere, or a
    // live column sorted on (CPU, memory), moves the row, and the view stays where the user scrolled.
  }, [props.cursor]);

  const win = windowRange(scrollTop, viewport, ROW_HEIGHT, props.rows.length);
  const shown = props.rows.slice(win.start, win.end);
  const allMarked = props.rows.length > 0 && props.rows.every((r) => props.marked.has(r.id));
  const pageRows = Math.max(1, Math.floor(viewport / ROW_HEIGHT) - 1);

  return (
    <div
      className={props.stale ? 'table-box stale' : 'table-box'}
      ref={box}
      tabIndex={0}
      role="region"
      aria-label={`Programs, ${props.rows.length} shown${props.stale ? ', not live' : ''}`}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
      onKeyDown={(e) => {
        if (e.target !== e.currentTarget && controlOwnsKey(e.key, e.target as HTMLElement)) return;
        props.onKey(e, pageRows);
      }}
    >
      <table className="programs" aria-rowcount={props.rows.length + 1}>
        <thead>
          <tr>
            <th className="c-mark">
              <input type="checkbox" aria-label="Mark every program shown" checked={allMarked} onChange={props.onMarkAll} />
            </th>
            {COLUMNS.map((c) => (
              <th key={c.key} className={c.className} aria-sort={props.sort.column === c.key ? (props.sort.desc ? 'descending' : 'ascending') : 'none'}>
                <button type="button" className="sort" onClick={() => props.onSort(c.key)}>
                  {c.title}
                  <span aria-hidden="true">{props.sort.column === c.key ? (props.sort.desc ? ' ▼' : ' ▲') : ''}</span>
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {win.padTop > 0 && <tr className="pad" style={{ height: win.padTop }} aria-hidden="true" />}
          {shown.map((p, i) => (
            <tr
              key={p.id}
              data-id={p.id}
              data-name={p.name}
              aria-rowindex={win.start + i + 2}
              aria-selected={props.marked.has(p.id)}
              className={p.id === props.cursor ? 'cursor' : undefined}
              style={{ height: ROW_HEIGHT }}
              onClick={(e) => {
                if ((e.target as HTMLElement).closest('a,input,button')) return;
                props.onCursor(p.id);
              }}
            >
              <td className="c-mark">
                <input
                  type="checkbox"
                  aria-label={`Mark ${p.name}`}
                  checked={props.marked.has(p.id)}
                  onChange={() => undefined}
                  onClick={(e) => {
                    props.onCursor(p.id);
                    props.onMark(p.id, e.shiftKey);
                  }}
                />
              </td>
              {COLUMNS.map((c) => (
                <td key={c.key} className={c.className}>
                  {c.cell(p, props.now)}
                </td>
              ))}
            </tr>
          ))}
          {win.padBottom > 0 && <tr className="pad" style={{ height: win.padBottom }} aria-hidden="true" />}
        </tbody>
      </table>
      {props.rows.length === 0 && <p className="empty">{(props.total ?? props.rows.length) === 0 ? 'No programs yet: Add program registers one, the Stack page applies many.' : 'No programs match the filter.'}</p>}
    </div>
  );
}
