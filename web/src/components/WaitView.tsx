import { formatSecs, waitSucceeded, waitSummary, type WaitResult } from '../logic/stack-wait.js';
import { StatusBadge } from './StatusBadge.js';

/**
 * What waiting for a stack's programs came to (the `wait` of `PUT /api/v1/stack?wait=`): a
 * summary line, in the error style when a program failed or the time ran out, then each program
 * ready (and how), failed (its status, why, its last stderr lines as text), not judged, skipped.
 */
export function WaitView({ wait }: { wait: WaitResult }) {
  const ok = waitSucceeded(wait);
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
      {wait.pending.length > 0 && (
        <div className="plan-group wait-pending">
          <h3>Not judged ({wait.pending.length})</h3>
          <p className="muted small">Still starting when the wait ended on the failure above.</p>
          <ul>
            {wait.pending.map((p) => (
              <li key={p.id}>
                {p.name} <StatusBadge status={p.status} />
              </li>
            ))}
          </ul>
        </div>
      )}
      {wait.skipped.length > 0 && (
        <div className="plan-group wait-skipped">
          <h3>Skipped ({wait.skipped.length})</h3>
          <p className="muted small">Not meant to run now (autostart = false): not waited for.</p>
          <ul>
            {wait.skipped.map((s) => (
              <li key={s.id}>
                {s.name} <StatusBadge status={s.status} />
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
