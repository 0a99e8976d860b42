import { useState } from 'react';

/**
 * Asks for the Bearer string (the daemon's auth_secret or an Access Token), the same string the
 * CLI takes with --token or SVC_TOKEN. It is kept in this tab's sessionStorage only.
 */
export function LoginPrompt(props: { error: string | null; busy: boolean; onSubmit: (secret: string) => void }) {
  const [secret, setSecret] = useState('');
  return (
    <main className="login">
      <form
        className="card form"
        aria-labelledby="login-title"
        onSubmit={(e) => {
          e.preventDefault();
          if (secret) props.onSubmit(secret);
        }}
      >
        <h1 id="login-title">svc</h1>
        <p>This daemon requires a credential: the server&apos;s auth_secret or an access token (what the CLI takes as --token).</p>
        <label>
          Secret or token
          <input type="password" name="secret" autoComplete="current-password" value={secret} onChange={(e) => setSecret(e.target.value)} autoFocus aria-invalid={props.error !== null} aria-describedby={props.error !== null ? 'login-error' : undefined} />
        </label>
        {props.error && (
          <p className="error-note" role="alert" id="login-error">
            {props.error}
          </p>
        )}
        <button type="submit" className="primary" disabled={props.busy || !secret}>
          Sign in
        </button>
        <p className="muted small">Kept for this browser tab only, until it closes or you sign out.</p>
      </form>
    </main>
  );
}
