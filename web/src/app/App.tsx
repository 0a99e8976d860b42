import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { authStatus, login, logout } from '../api/auth.js';
import { loadToken, saveToken } from '../api/credentials.js';
import { ApiError, createHttp, errorText } from '../api/http.js';
import { programFeed } from '../api/program-feed.js';
import { roleOf, visiblePanels, type Role, type UiInfo } from '../logic/panels.js';
import { UsageHistory } from '../logic/usage-history.js';
import { ServicesContext, type Services } from './context.js';
import { LoginPrompt } from './LoginPrompt.js';
import { Shell } from './Shell.js';

/** How often an unreachable svcd is asked again (the program feed's longest back-off). */
const DOWN_RETRY_MS = 5000;

type Session = { phase: 'checking' } | { phase: 'login'; error: string | null } | { phase: 'ready'; role: Role | null; authRequired: boolean } | { phase: 'down'; error: string };

/**
 * The dashboard: asks `GET /api/v1/auth/status` whether a credential is needed (and prompts for
 * it), then shows the page named by the URL fragment. One program feed and one usage history
 * live as long as the page.
 */
export function App() {
  const token = useRef<string | null>(loadToken());
  const [session, setSession] = useState<Session>({ phase: 'checking' });
  const [busy, setBusy] = useState(false);
  const [ui, setUi] = useState<UiInfo | null>(null);

  const signedOut = useCallback((error: string | null) => {
    token.current = null;
    saveToken(null);
    setSession({ phase: 'login', error });
  }, []);
  const auth = useMemo(() => ({ token: () => token.current, unauthorized: (msg: string) => signedOut(`svcd refused the credential: ${msg}`) }), [signedOut]);
  const http = useMemo(() => createHttp(auth), [auth]);
  const feed = useMemo(() => programFeed(http, auth), [http, auth]);
  const history = useMemo(() => new UsageHistory(), []);
  const getToken = useCallback(() => token.current, []);

  const check = useCallback(async () => {
    try {
      const status = await authStatus(token.current);
      if (!status?.auth_required) return setSession({ phase: 'ready', role: null, authRequired: false });
      if (status.authenticated) return setSession({ phase: 'ready', role: roleOf(status), authRequired: true });
      signedOut(token.current ? 'The saved credential was refused; enter it again.' : null);
    } catch (err) {
      setSession({ phase: 'down', error: errorText(err) });
    }
  }, [signedOut]);
  useEffect(() => void check(), [check]);
  // svcd unreachable when the page opened (restarting, say): ask again until it answers.
  const down = session.phase === 'down';
  useEffect(() => {
    if (!down) return;
    const timer = setTimeout(() => void check(), DOWN_RETRY_MS);
    return () => clearTimeout(timer);
  }, [down, session, check]);

  const submit = async (secret: string) => {
    setBusy(true);
    try {
      await login(secret);
      token.current = secret;
      saveToken(secret);
      await check();
    } catch (err) {
      setSession({ phase: 'login', error: err instanceof ApiError && err.status === 401 ? `Wrong secret or token: ${err.message}` : errorText(err) });
    } finally {
      setBusy(false);
    }
  };

  const ready = session.phase === 'ready';
  useEffect(() => {
    if (!ready) return;
    // The usage charts sample every list refresh, whatever page is open.
    return feed.subscribe(() => history.record(feed.current().rows, feed.current().at));
  }, [ready, feed, history]);
  useEffect(() => {
    if (!ready) return;
    // Extension panels exist only while the daemon lists them (ui plugin loaded); a 404 means none.
    http.get<UiInfo>('/api/v1/system/ui').then(setUi, () => setUi(null));
  }, [ready, http]);

  if (session.phase === 'checking') return <p className="muted center">Connecting to svcd…</p>;
  if (session.phase === 'down')
    return (
      <main className="login">
        <div className="card">
          <h1>svc</h1>
          <p className="error-note" role="alert">{session.error}</p>
          <p className="muted small">retrying every {DOWN_RETRY_MS / 1000} s</p>
          <button type="button" onClick={() => void check()}>
            Retry now
          </button>
        </div>
      </main>
    );
  if (session.phase === 'login') return <LoginPrompt error={session.error} busy={busy} onSubmit={(s) => void submit(s)} />;

  const services: Services = { http, feed, history, token: getToken, role: session.role, panels: visiblePanels(ui, session.role) };
  return (
    <ServicesContext.Provider value={services}>
      <Shell
        role={session.role}
        authRequired={session.authRequired}
        onSignOut={() => {
          void logout(token.current);
          signedOut(null);
        }}
      />
    </ServicesContext.Provider>
  );
}
