import { useState } from 'react';
import type { GitSourceStatus } from '../../../stacks/git/status.js';
import { errorText } from '../api/http.js';
import { useServices } from '../app/context.js';
import { dateTime } from '../logic/format.js';
import { may } from '../logic/permissions.js';

/** Git sources (docs/gitops.md): the commit in force, the last fetch, the last error; "Sync now" for operators. */
export function GitSourcesCard({ sources, onSynced }: { sources: GitSourceStatus[]; onSynced: () => void }) {
  const { http, role } = useServices();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const sync = async (name: string) => {
    setBusy(name);
    setError(null);
    try {
      await http.send('POST', `/api/v1/stack/sync?source=${encodeURIComponent(name)}`);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(null);
      onSynced();
    }
  };
  if (sources.length === 0) return <p className="muted">No git sources ([[stacks.git]] in conf/svc.toml).</p>;
  return (
    <ul className="plain git-sources">
      {sources.map((g) => (
        <li key={g.name}>
          <b>{g.name}</b> <span className={`badge tone-${g.last_error ? 'bad' : g.applied ? 'good' : 'idle'}`}>{g.last_error ? 'error' : g.applied ? 'ok' : 'pending'}</span>{' '}
          <span className="mono small">
            {g.url} · {g.ref}
            {g.path ? ` · ${g.path}` : ''} · host {g.host}
          </span>
          <div className="small">
            {g.applied ? (
              <>
                applied <span className="mono">{g.applied.commit.slice(0, 12)}</span> “{g.applied.subject}” · committed {dateTime(g.applied.time)}
              </>
            ) : (
              'nothing applied yet'
            )}
            {g.pinned && <span className="badge tone-busy"> pinned {g.pinned.slice(0, 12)}</span>}
            {g.last_fetch && (
              <span className="muted">
                {' '}
                · fetched {dateTime(g.last_fetch.at)} {g.last_fetch.ok ? '' : '(failed)'}
              </span>
            )}
          </div>
          {g.last_error && <div className="error-note small">{g.last_error.message}</div>}
          {may(role, 'program.control') && (
            <button type="button" disabled={busy !== null} onClick={() => void sync(g.name)}>
              {busy === g.name ? 'Syncing…' : 'Sync now'}
            </button>
          )}
        </li>
      ))}
      {error && <li className="error-note">{error}</li>}
    </ul>
  );
}
