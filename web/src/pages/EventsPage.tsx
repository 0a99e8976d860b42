import type { EventStats } from '../api/types.js';
import { useServices } from '../app/context.js';
import { useLoad } from '../app/hooks.js';
import { EventsView } from '../components/EventsView.js';
import { dateTime } from '../logic/format.js';

/** The whole daemon's event history, with the counts by type above it. */
export function EventsPage() {
  const { http } = useServices();
  const stats = useLoad(() => http.get<EventStats>('/api/v1/events/stats'), 'stats', 10_000);
  const s = stats.data;
  return (
    <section className="page" aria-labelledby="events-title">
      <div className="toolbar">
        <h1 id="events-title">Events</h1>
        {s && (
          <span className="muted">
            {s.total} retained{s.first_ts ? ` · ${dateTime(s.first_ts * 1000)} – ${dateTime((s.last_ts ?? s.first_ts) * 1000)}` : ''}
          </span>
        )}
      </div>
      {s && (
        <ul className="stat-chips" aria-label="Events by type">
          {Object.entries(s.by_type)
            .sort((a, b) => b[1] - a[1])
            .map(([type, n]) => (
              <li key={type} className={`ev-${type}`}>
                {type} <b>{n}</b>
              </li>
            ))}
        </ul>
      )}
      <EventsView />
    </section>
  );
}
