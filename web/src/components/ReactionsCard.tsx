import type { ReactionsStatus, ReactionView, RunRecord } from '../../../state/reactions-view.js';
import { dateTime } from '../logic/format.js';

const TONE: Record<RunRecord['outcome'], string> = { ok: 'good', running: 'busy', failed: 'bad', timeout: 'bad', spawn_failed: 'bad' };

function LastRun({ run }: { run: RunRecord | null }) {
  if (!run) return <span className="muted small">never run</span>;
  return (
    <>
      <span className={`badge tone-${TONE[run.outcome]}`}>{run.outcome}</span>{' '}
      <span className="small">
        {dateTime(run.started_at)} · {run.test ? 'test run' : run.event}
        {run.program_name ? ` of ${run.program_name}` : ''} · {run.msg}
      </span>
    </>
  );
}

function Row({ r, onTest, testing }: { r: ReactionView; onTest?: (name: string) => void; testing: boolean }) {
  return (
    <li>
      <b>{r.name}</b> {!r.enabled && <span className="badge tone-idle">disabled</span>}{' '}
      <span className="muted small">
        on {r.events.join(', ')}
        {r.programs ? ` of ${r.programs.join(', ')}` : ''}
      </span>
      <div>
        <LastRun run={r.last_run} />
        {onTest && (
          <>
            {' '}
            <button type="button" className="small" disabled={testing} onClick={() => onTest(r.name)} aria-label={`Test reaction ${r.name}`}>
              Test
            </button>
          </>
        )}
      </div>
    </li>
  );
}

/**
 * Event reactions (docs/reactions.md): the error of the last edit first (it explains a stale
 * list), then each reaction with its last run; operators get a Test button.
 */
export function ReactionsCard({ status, error, onTest, testing = null }: { status: ReactionsStatus | null; error: string | null; onTest?: (name: string) => void; testing?: string | null }) {
  if (!status) return <p className="muted">{error ?? 'Loading…'}</p>;
  return (
    <>
      {status.load_error && (
        <div className="error-note" role="alert">
          <p>The last edit of {status.file} was not applied ({dateTime(status.load_error.at)}); the reactions below stay in force:</p>
          <ul className="plain mono small">
            {status.load_error.errors.map((e) => (
              <li key={e}>{e}</li>
            ))}
          </ul>
        </div>
      )}
      <ul className="plain">
        {status.reactions.map((r) => (
          <Row key={r.name} r={r} onTest={onTest} testing={testing === r.name} />
        ))}
        {status.reactions.length === 0 && <li className="muted">no reactions (add [[reaction]] tables to {status.file})</li>}
      </ul>
    </>
  );
}
