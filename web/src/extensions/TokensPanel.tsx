import { useState } from 'react';
import { useServices } from '../app/context.js';
import { useLoad } from '../app/hooks.js';
import { Dialog } from '../components/Dialog.js';
import { ErrorNote } from '../components/ErrorNote.js';
import { ROLES } from '../logic/panels.js';
import { cellText, listOf } from './shapes.js';

interface Token {
  id: string;
  name: string;
  role: string;
  [key: string]: unknown;
}

/**
 * Access Tokens (security plugin, spec: Authentication routes): list, create (the secret is
 * shown once), renew (a new secret, the old one stops at once) and revoke.
 */
export function TokensPanel() {
  const { http } = useServices();
  const tokens = useLoad(async () => listOf<Token>(await http.get('/api/v1/auth/tokens'), 'tokens'), 'tokens');
  const [name, setName] = useState('');
  const [role, setRole] = useState<string>('viewer');
  const [secret, setSecret] = useState<{ name: string; secret: string } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [revoke, setRevoke] = useState<Token | null>(null);
  const act = async (fn: () => Promise<unknown>) => {
    setError(null);
    try {
      await fn();
      tokens.reload();
    } catch (err) {
      setError(err);
    }
  };
  const create = () =>
    act(async () => {
      const res = await http.send<{ secret?: string; token?: { secret?: string } }>('POST', '/api/v1/auth/tokens', { name: name.trim(), role });
      setSecret({ name: name.trim(), secret: res.secret ?? res.token?.secret ?? '(the daemon returned no secret)' });
      setName('');
    });
  const renew = (t: Token) =>
    act(async () => {
      const res = await http.send<{ secret?: string; token?: { secret?: string } }>('POST', `/api/v1/auth/tokens/${encodeURIComponent(t.id)}/renew`);
      setSecret({ name: t.name, secret: res.secret ?? res.token?.secret ?? '(the daemon returned no secret)' });
    });
  const extra = (t: Token) => Object.entries(t).filter(([k]) => !['id', 'name', 'role', 'secret'].includes(k));
  return (
    <div className="panel tokens-panel">
      <form
        className="form row"
        onSubmit={(e) => {
          e.preventDefault();
          void create();
        }}
      >
        <label>
          Name <input value={name} onChange={(e) => setName(e.target.value)} required />
        </label>
        <label>
          Role{' '}
          <select value={role} onChange={(e) => setRole(e.target.value)}>
            {ROLES.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        </label>
        <button type="submit" className="primary">
          Create token
        </button>
      </form>
      <ErrorNote error={error ?? tokens.error} />
      {secret && (
        <p className="report ok" role="status">
          Secret of <b>{secret.name}</b> (shown once; copy it now): <code className="secret">{secret.secret}</code>{' '}
          <button type="button" onClick={() => void navigator.clipboard?.writeText(secret.secret)}>
            Copy
          </button>
        </p>
      )}
      <table className="data">
        <thead>
          <tr>
            <th>Name</th>
            <th>Role</th>
            <th>Details</th>
            <th>Actions</th>
          </tr>
        </thead>
        <tbody>
          {(tokens.data ?? []).map((t) => (
            <tr key={t.id}>
              <td>{t.name}</td>
              <td>{t.role}</td>
              <td className="small muted">{extra(t).map(([k, v]) => `${k}: ${cellText(k, v)}`).join(' · ')}</td>
              <td>
                <button type="button" onClick={() => void renew(t)}>
                  Renew
                </button>{' '}
                <button type="button" className="danger" onClick={() => setRevoke(t)}>
                  Revoke
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {revoke && (
        <Dialog title={`Revoke ${revoke.name}?`} onClose={() => setRevoke(null)}>
          <p>Requests with this token are refused at once. Revoking the last admin token re-enables auth_secret.</p>
          <div className="buttons">
            <button type="button" onClick={() => setRevoke(null)} data-autofocus>
              Cancel
            </button>
            <button
              type="button"
              className="danger"
              onClick={() => {
                const t = revoke;
                setRevoke(null);
                void act(() => http.send('DELETE', `/api/v1/auth/tokens/${encodeURIComponent(t.id)}`));
              }}
            >
              Revoke
            </button>
          </div>
        </Dialog>
      )}
    </div>
  );
}
