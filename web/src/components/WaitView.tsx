import { formatSecs, waitSummary, type WaitResult } from '../logic/stack-wait.js';
import { StatusBadge } from './StatusBadge.js';

/**
 * What waiting for a stack's programs came to (the `wait` of `PUT /api/v1/stack?wait=`): a
 * summary line, in the error style when a program failed or the time ran out, then each program
 * ready (and how), failed (its status, why, its last stderr lines as text), not judged, skipped.
 */
export function WaitView({ wait }: { wait: WaitResult }) {
  // A timed-out wait is never ok: each program still on its way is among the failed (state/readiness.ts).
  const ok = wait.ok;
  return (
    <section className="plan wait-outcome" aria-label="Readiness">
      <p className={ok ? 'plan-summary' : 'plan-summary error-note'} role={ok ? 'status' : 'alert'}>
        <b>{ok ? 'Ready' : wait.timed_out ? 'Not ready (timed out)' : 'Not ready'}:</b> {waitSummary(wait)}
      </p>
      {wait.ready.length > 0 && (
        <div className="plan-group wait-ready">
          <h3>Ready ({wait.ready.length})</h3>
          <ul>
            {wait.ready.map((r) => (
              <li key={r.id}>
                {r.name} <span className="badge tone-good">{r.how}</span> <span className="muted small">after {formatSecs(r.secs)}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
      {wait.failed.length > 0 && (
        <div className="plan-group wait-failed">
          <h3>{wait.timed_out ? 'Not ready' : 'Failed'} ({wait.failed.length})</h3>
          <ul>
            {wait.failed.map((f) => (
              <li key={f.id}>
                {f.name} <StatusBadge status={f.status} /> <span className="error-note">{f.warning}</span>
                {f.stderr && f.stderr.length > 0 && (
                  <pre className="code stderr" aria-label={`stderr of ${f.name}`}>
                    {f.stderr.join('\n')}
                  </pre>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
      <StatusList className="wait-pending" title="Not judged" note="Still on their way when the wait ended on the failure above." programs={wait.pending} />
      <StatusList className="wait-skipped" title="Skipped" note="Not meant to run now (autostart = false): not waited for." programs={wait.skipped} />
    </section>
  );
}

/** A group of programs shown by name and status (not judged, skipped); nothing when empty. */
function StatusList({ className, title, note, programs }: { className: string; title: string; note: string; programs: WaitResult['pending'] }) {
  if (programs.length === 0) return null;
  return (
    <div className={`plan-group ${className}`}>
      <h3>
        {title} ({programs.length})
      </h3>
      <p className="muted small">{note}</p>
      <ul>
        {programs.map((p) => (
          <li key={p.id}>
            {p.name} <StatusBadge status={p.status} />
          </li>
        ))}
      </ul>
    </div>
  );
}
