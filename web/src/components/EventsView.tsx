import { useState } from 'react';
import { EVENT_TYPES } from '../../../state/events/types.js';
import { ApiError, errorText } from '../api/http.js';
import type { EventRecord } from '../api/types.js';
import { useServices } from '../app/context.js';
import { useFeed, useLoad } from '../app/hooks.js';
import { DEFAULT_FILTERS, eventQuery, refreshesInPlace, toggleEventSort, type EventFilters, type EventSortKey } from '../logic/event-filters.js';
import { fieldOfMessage } from '../logic/field-error.js';
import { dateTime } from '../logic/format.js';

const FIELDS = ['from', 'to', 'event_type', 'exit_code', 'q', 'program_id', 'limit', 'offset', 'sort_by', 'order'];

const COLUMNS: { key: EventSortKey | null; title: string; cell: (e: EventRecord) => string | number }[] = [
  { key: 'time', title: 'Time', cell: (e) => dateTime(e.ts_ms) },
  { key: null, title: 'Program', cell: (e) => e.program_name ?? '(daemon)' },
  { key: 'event', title: 'Event', cell: (e) => e.event },
  { key: 'exit_code', title: 'Exit', cell: (e) => e.exit_code ?? '' },
  { key: 'signal', title: 'Signal', cell: (e) => e.signal ?? '' },
  { key: 'retry_count', title: 'Retry', cell: (e) => e.retry_count ?? '' },
  { key: 'duration_secs', title: 'Duration', cell: (e) => (e.duration_secs === null ? '' : `${e.duration_secs}s`) },
  { key: 'msg', title: 'Message', cell: (e) => e.msg },
];

/**
 * The event history with the spec's filters (time range, type, exit code, text, sort, page).
 * The form is sent as typed: a bad value comes back as the daemon's 400 and is shown next to
 * the field it names. `programId` fixes the program (program page); otherwise a picker shows.
 */
export function EventsView({ programId }: { programId?: string }) {
  const { http, feed } = useServices();
  const programs = useFeed(feed).rows;
  const [draft, setDraft] = useState<EventFilters>(DEFAULT_FILTERS);
  const [applied, setApplied] = useState<EventFilters>(DEFAULT_FILTERS);
  const [live, setLive] = useState(true);
  const query = eventQuery(applied);
  const path = programId ? `/api/v1/programs/${encodeURIComponent(programId)}/events?${query}` : `/api/v1/events?${query}`;
  const inPlace = refreshesInPlace(applied);
  const events = useLoad(() => http.get<EventRecord[]>(path), path, live && inPlace ? 3000 : 0);
  const errorField = events.error instanceof ApiError && events.error.status === 400 ? fieldOfMessage(errorText(events.error), FIELDS) : null;
  const set = <K extends keyof EventFilters>(k: K, v: EventFilters[K]) => setDraft((d) => ({ ...d, [k]: v }));
  const apply = (f: EventFilters) => {
    setDraft(f);
    setApplied(f);
  };
  const note = (field: string) =>
    errorField === field ? (
      <span className="field-error" role="alert">
        {errorText(events.error)}
      </span>
    ) : null;
  const rows = events.data ?? [];

  return (
    <div className="events">
      <form
        className="filters"
        aria-label="Event filters"
        onSubmit={(e) => {
          e.preventDefault();
          apply({ ...draft, offset: 0 });
        }}
      >
        <label>
          From <input type="datetime-local" name="from" value={draft.from} onChange={(e) => set('from', e.target.value)} />
          {note('from')}
        </label>
        <label>
          To <input type="datetime-local" name="to" value={draft.to} onChange={(e) => set('to', e.target.value)} />
          {note('to')}
        </label>
        <label>
          Type{' '}
          <select name="event_type" value={draft.event_type} onChange={(e) => set('event_type', e.target.value)}>
            <option value="">all types</option>
            {EVENT_TYPES.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </label>
        <label>
          Exit code <input name="exit_code" inputMode="numeric" size={5} value={draft.exit_code} onChange={(e) => set('exit_code', e.target.value)} aria-invalid={errorField === 'exit_code'} />
          {note('exit_code')}
        </label>
        <label>
          Text <input type="search" name="q" value={draft.q} onChange={(e) => set('q', e.target.value)} placeholder="in message" />
        </label>
        {!programId && (
          <label>
            Program{' '}
            <select name="program_id" value={draft.program_id} onChange={(e) => set('program_id', e.target.value)}>
              <option value="">all programs and the daemon</option>
              {[...programs]
                .sort((a, b) => a.name.localeCompare(b.name))
                .map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
            </select>
          </label>
        )}
        <div className="buttons">
          <button type="submit" className="primary">
            Apply filters
          </button>
          <button type="button" onClick={() => apply(DEFAULT_FILTERS)}>
            Reset
          </button>
          <label className="check">
            <input type="checkbox" checked={live} onChange={(e) => setLive(e.target.checked)} /> auto-refresh
            {live && !inPlace && <span className="muted"> (paused on this page: new events would move its rows)</span>}
          </label>
        </div>
        {events.error !== null && !errorField && <p className="error-note" role="alert">{errorText(events.error)}</p>}
      </form>
      <div className="table-scroll">
        <table className="event-table">
          <thead>
            <tr>
              {COLUMNS.map((c) => (
                <th key={c.title} aria-sort={c.key && applied.sort_by === c.key ? (applied.order === 'asc' ? 'ascending' : 'descending') : undefined}>
                  {c.key ? (
                    <button type="button" className="sort" onClick={() => apply(toggleEventSort(applied, c.key as EventSortKey))}>
                      {c.title}
                      {applied.sort_by === c.key ? (applied.order === 'asc' ? ' ▲' : ' ▼') : ''}
                    </button>
                  ) : (
                    c.title
                  )}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((e) => (
              <tr key={e.id} className={`ev-${e.event}`}>
                {COLUMNS.map((c) => (
                  <td key={c.title}>{c.cell(e)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        {rows.length === 0 && !events.loading && <p className="empty">No events match.</p>}
      </div>
      <div className="pager">
        <button type="button" disabled={applied.offset === 0} onClick={() => apply({ ...applied, offset: Math.max(0, applied.offset - applied.limit) })}>
          ← Previous
        </button>
        <span className="muted">
          {rows.length ? `${applied.offset + 1}–${applied.offset + rows.length}` : '0'} · {applied.limit} a page
        </span>
        <button type="button" disabled={rows.length < applied.limit} onClick={() => apply({ ...applied, offset: applied.offset + applied.limit })}>
          Next →
        </button>
      </div>
    </div>
  );
}
