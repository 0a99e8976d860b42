import { useState } from 'react';
import type { StackStatusBody } from '../../../stacks/stack-problems.js';
import { ApiError, errorText } from '../api/http.js';
import type { LicenseInfo, SystemStats } from '../api/types.js';
import { useServices } from '../app/context.js';
import { useFeed, useLoad } from '../app/hooks.js';
import { Dialog } from '../components/Dialog.js';
import { GitSourcesCard } from '../components/GitSourcesCard.js';
import { StorageCard, type Storage } from '../components/StorageCard.js';
import { ReactionsCard } from '../components/ReactionsCard.js';
import type { ReactionsStatus, RunRecord } from '../../../state/reactions-view.js';
import { bytes, dateTime, duration, percent } from '../logic/format.js';
import { may } from '../logic/permissions.js';
import { statusTone } from '../logic/status.js';

/** `null` for a 404 (the route or the thing is absent), the value otherwise. */
async function optional<T>(load: Promise<T>): Promise<T | null> {
  try {
    return await load;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}

/** The daemon: host load, version, license and plugins, the watched stack directory, shutdown. */
export function SystemPage() {
  const { http, feed, role, panels } = useServices();
  const rows = useFeed(feed).rows;
  const stats = useLoad(() => http.get<SystemStats>('/api/v1/system/stats'), 'stats', 3000);
  const health = useLoad(() => http.get<{ version: string; uptime_secs: number }>('/health'), 'health', 10_000);
  const license = useLoad(() => optional(http.get<LicenseInfo>('/api/v1/system/license')), 'license');
  const stackDir = useLoad(() => http.get<StackStatusBody>('/api/v1/stack/status'), 'stack-status', 10_000);
  const storage = useLoad(() => http.get<Storage>('/api/v1/system/storage'), 'storage', 5000);
  const reactions = useLoad(() => http.get<ReactionsStatus>('/api/v1/system/reactions'), 'reactions', 5000);
  const [testing, setTesting] = useState<string | null>(null);
  const [tested, setTested] = useState<string | null>(null);
  const testReaction = (name: string) => {
    setTesting(name);
    setTested(null);
    http.send<RunRecord>('POST', `/api/v1/system/reactions/${encodeURIComponent(name)}/test`).then(
      (r) => setTested(`reaction '${name}' ${r.msg}`),
      (err: unknown) => setTested(errorText(err)),
    ).finally(() => setTesting(null));
  };
  const [confirm, setConfirm] = useState(false);
  const [shutdown, setShutdown] = useState<string | null>(null);
  const s = stats.data;
  const lic = license.data;
  const tones = { good: 0, busy: 0, bad: 0, idle: 0 };
  for (const r of rows) tones[statusTone(r.status)]++;
  const plugins = Object.entries(lic?.plugin_versions ?? {});

  return (
    <section className="page system-page" aria-labelledby="system-title">
      <h1 id="system-title">System</h1>
      <div className="cards">
        <article className="card">
          <h2>Host</h2>
          {s ? (
            <dl className="facts">
              <div className="fact"><dt>CPU</dt><dd>{percent(s.cpu_percent)}</dd></div>
              <div className="fact"><dt>Memory</dt><dd>{bytes(s.memory_used_bytes)} of {bytes(s.memory_total_bytes)}</dd></div>
              <div className="fact"><dt>Sampled</dt><dd>{dateTime(s.timestamp * 1000)}</dd></div>
            </dl>
          ) : (
            <p className="muted">{stats.error ? errorText(stats.error) : 'Loading…'}</p>
          )}
        </article>
        <article className="card">
          <h2>svcd</h2>
          <dl className="facts">
            <div className="fact"><dt>Version</dt><dd>{health.data?.version ?? '-'}</dd></div>
            <div className="fact"><dt>Up for</dt><dd>{duration(health.data?.uptime_secs)}</dd></div>
            <div className="fact"><dt>Programs</dt><dd>{rows.length} · {tones.good} running · {tones.bad} failing · {tones.busy} changing · {tones.idle} stopped</dd></div>
            <div className="fact"><dt>Access</dt><dd>{role ? `signed in as ${role}` : 'open (no auth_secret)'}</dd></div>
          </dl>
        </article>
        <article className="card">
          <h2>License and plugins</h2>
          {license.error !== null ? (
            <p className="error-note">{errorText(license.error)}</p>
          ) : lic ? (
            <dl className="facts">
              <div className="fact"><dt>Issued to</dt><dd>{lic.issued_to ?? '-'}</dd></div>
              <div className="fact"><dt>Grants</dt><dd>{(lic.grants ?? []).join(', ') || '-'}</dd></div>
              <div className="fact"><dt>Expires</dt><dd>{lic.expires_at ? dateTime(lic.expires_at * 1000) : 'never'}</dd></div>
              <div className="fact"><dt>Features</dt><dd>{(lic.features ?? []).join(', ') || '-'}</dd></div>
              <div className="fact"><dt>Plugins</dt><dd>{plugins.length ? plugins.map(([n, v]) => `${n} ${v}`).join(', ') : 'none loaded'}</dd></div>
            </dl>
          ) : license.loading ? (
            <p className="muted">Loading…</p>
          ) : (
            <p>No license: open mode, no plugins loaded.</p>
          )}
          {panels.length > 0 && <p className="muted small">Dashboard extensions: {panels.map((p) => p.title).join(', ')}</p>}
        </article>
        <article className="card">
          <h2>Storage</h2>
          <StorageCard storage={storage.data} error={storage.error ? errorText(storage.error) : null} />
        </article>
        <article className="card">
          <h2>Event reactions</h2>
          <ReactionsCard status={reactions.data} error={reactions.error ? errorText(reactions.error) : null} onTest={may(role, 'reaction.test') ? testReaction : undefined} testing={testing} />
          {tested && <p role="status" className="small">{tested}</p>}
        </article>
        <article className="card">
          <h2>Watched stacks</h2>
          {stackDir.data ? (
            <>
              <p className="mono small">
                {stackDir.data.dir} · {stackDir.data.watching ? 'watching' : 'not watching'}
              </p>
              <ul className="plain">
                {stackDir.data.files.map((f) => (
                  <li key={f.file}>
                    <b>{f.file}</b> <span className={`badge tone-${f.state === 'error' ? 'bad' : f.state === 'ok' ? 'good' : 'idle'}`}>{f.state}</span>
                    {f.message && <span className="error-note small"> {f.message}</span>}
                    {f.warning && <span className="warn-note small"> {f.warning}</span>}
                  </li>
                ))}
                {stackDir.data.files.length === 0 && <li className="muted">no stack files</li>}
              </ul>
            </>
          ) : (
            <p className="muted">{stackDir.error ? errorText(stackDir.error) : 'Loading…'}</p>
          )}
        </article>
        <article className="card">
          <h2>Git sources</h2>
          {stackDir.data ? <GitSourcesCard sources={stackDir.data.git ?? []} onSynced={stackDir.reload} /> : <p className="muted">{stackDir.error ? errorText(stackDir.error) : 'Loading…'}</p>}
        </article>
      </div>
      {may(role, 'system.shutdown') && (
        <p>
          <button type="button" className="danger" onClick={() => setConfirm(true)} disabled={shutdown !== null}>
            Shut down svcd…
          </button>{' '}
          {shutdown && <span role="status">{shutdown}</span>}
        </p>
      )}
      {confirm && (
        <Dialog title="Shut down svcd?" onClose={() => setConfirm(false)}>
          <p>Every program is stopped (dependants first), then the daemon exits. Nothing restarts it unless a service manager does.</p>
          <div className="buttons">
            <button type="button" onClick={() => setConfirm(false)} data-autofocus>
              Cancel
            </button>
            <button
              type="button"
              className="danger"
              onClick={() => {
                setConfirm(false);
                http.send<{ message: string }>('POST', '/api/v1/system/shutdown').then(
                  (r) => setShutdown(r.message),
                  (err: unknown) => setShutdown(errorText(err)),
                );
              }}
            >
              Shut down
            </button>
          </div>
        </Dialog>
      )}
    </section>
  );
}
