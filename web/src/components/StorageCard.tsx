import type { EventHistoryReport } from '../../../state/events/event-log.js';
import type { StateStoreReport } from '../../../state/store.js';
import { dateTime } from '../logic/format.js';

/** `GET /api/v1/system/storage` (docs/operations.md, "Durability"). */
export interface Storage {
  state: StateStoreReport;
  events: EventHistoryReport;
}

function Health({ what, h, extra }: { what: string; h: StateStoreReport | EventHistoryReport; extra: string[] }) {
  return (
    <div className="fact">
      <dt>{what}</dt>
      <dd>
        {h.writable ? <span className="badge tone-good">writable</span> : <span className="badge tone-bad">not writable since {h.since ? dateTime(h.since) : '?'}</span>}
        {!h.writable && <span className="error-note small"> {h.problem}</span>}
        {extra.map((e) => (
          <span key={e} className="muted small"> · {e}</span>
        ))}
        {h.recovered_at_open && <span className="error-note small"> At start: {h.recovered_at_open}</span>}
      </dd>
    </div>
  );
}

/** Whether the stores take writes (a full data disk), what waits in memory, what was quarantined. */
export function StorageCard({ storage, error }: { storage: Storage | null; error: string | null }) {
  if (!storage) return <p className="muted">{error ?? 'Loading…'}</p>;
  const { state, events } = storage;
  return (
    <>
      <dl className="facts">
        <Health what="Programs" h={state} extra={state.pending_intents > 0 ? [`${state.pending_intents} stop(s) held in memory until it can write`] : []} />
        <Health
          what="Events"
          h={events}
          extra={[...(events.queued > 0 ? [`${events.queued} waiting in memory`] : []), ...(events.malformed_records > 0 ? [`${events.malformed_records} malformed record(s) skipped`] : [])]}
        />
      </dl>
      {state.quarantined.length > 0 && (
        <>
          <h3>Quarantined records ({state.quarantined.length})</h3>
          <ul className="plain">
            {state.quarantined.map((q) => (
              <li key={q.id}>
                <b>{q.name ?? q.id}</b> <span className="error-note small">{q.reason}</span>
              </li>
            ))}
          </ul>
          <p className="muted small">Not loaded and never started. Re-create the program, then `svc storage discard ID`.</p>
        </>
      )}
    </>
  );
}
