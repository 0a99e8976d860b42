import { useState } from 'react';
import { useServices } from '../app/context.js';
import { useLoad } from '../app/hooks.js';
import { ErrorNote } from '../components/ErrorNote.js';
import { listOf } from './shapes.js';

/**
 * Webhook channels (notify plugin): the configuration as the daemon shows it (secrets redacted
 * by role), an editor that hot-reloads it (`PUT /api/v1/system/notify`), and a test per channel.
 */
export function NotifyPanel() {
  const { http } = useServices();
  const current = useLoad(() => http.get<unknown>('/api/v1/system/notify'), 'notify');
  const [text, setText] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [report, setReport] = useState<string | null>(null);
  const channels = listOf<{ name?: string; id?: string }>(current.data, 'channels')
    .map((c) => c.name ?? c.id)
    .filter((n): n is string => typeof n === 'string');
  const run = async (fn: () => Promise<string>) => {
    setError(null);
    setReport(null);
    try {
      setReport(await fn());
    } catch (err) {
      setError(err);
    }
  };
  const save = () =>
    run(async () => {
      if (text === null) return 'nothing to save';
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch (err) {
        throw new Error(`not JSON: ${(err as Error).message}`);
      }
      await http.send('PUT', '/api/v1/system/notify', body);
      setText(null);
      current.reload();
      return 'channels reloaded';
    });
  const test = (channel: string) =>
    run(async () => {
      const res = await http.send<{ message?: string }>('POST', '/api/v1/system/notify/test', { channel });
      return res?.message ?? `test sent to ${channel}`;
    });
  return (
    <div className="panel notify-panel">
      <ErrorNote error={error ?? current.error} />
      {report && (
        <p className="report ok" role="status">
          {report}
        </p>
      )}
      {channels.length > 0 && (
        <ul className="plain">
          {channels.map((c) => (
            <li key={c}>
              <b>{c}</b>{' '}
              <button type="button" onClick={() => void test(c)}>
                Send a test
              </button>
            </li>
          ))}
        </ul>
      )}
      {text === null ? (
        <>
          <pre className="code">{current.data === null ? 'Loading…' : JSON.stringify(current.data, null, 2)}</pre>
          <button type="button" onClick={() => setText(JSON.stringify(current.data, null, 2))} disabled={current.data === null}>
            Edit channels
          </button>
        </>
      ) : (
        <form
          className="form"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <textarea className="code" rows={16} value={text} onChange={(e) => setText(e.target.value)} spellCheck={false} aria-label="Channels (JSON)" />
          <div className="buttons">
            <button type="button" onClick={() => setText(null)}>
              Cancel
            </button>
            <button type="submit" className="primary">
              Save and reload
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
