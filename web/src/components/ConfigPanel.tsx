import { useState } from 'react';
import { errorText } from '../api/http.js';
import type { ProgramDetail } from '../api/types.js';
import { useServices } from '../app/context.js';
import { changedSince } from '../logic/config-edit.js';
import { useDraft } from '../logic/drafts.js';
import { may } from '../logic/permissions.js';

/**
 * The stored configuration as JSON (the daemon redacts secrets for roles that may not see
 * them), and an editor that sends `PUT /api/v1/programs/{id}`: only the fields present change,
 * a field removed from the text is left as it is. The daemon's message shows under the editor.
 * Before saving it reads the configuration again: when svcd's copy changed since the editor
 * opened, it says which fields and saves only when told to (the text would undo that change).
 */
export function ConfigPanel({ detail, onSaved, onRestart }: { detail: ProgramDetail; onSaved: () => void; onRestart: () => void }) {
  const { http, role } = useServices();
  // An edit under way stays while the user looks at other pages or tabs (logic/drafts.ts), with
  // the configuration it was made from, so that a save still tells svcd's later changes.
  const [draft, setDraft] = useDraft<{ text: string; opened: ProgramDetail['config'] } | null>(`config:${detail.id}`, null);
  const text = draft?.text ?? null;
  const setText = (next: string) => draft && setDraft({ ...draft, text: next });
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  // svcd's newer configuration when it differs, at a save, from the one the text was made from.
  const [conflict, setConflict] = useState<{ config: ProgramDetail['config']; fields: string[] } | null>(null);
  const pretty = JSON.stringify(detail.config, null, 2);
  const edit = (config: ProgramDetail['config']) => {
    setDraft({ text: JSON.stringify(config, null, 2), opened: config });
    setConflict(null);
    setError(null);
  };
  const save = async (overwrite = false) => {
    if (text === null) return;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (err) {
      setError(new Error(`not JSON: ${(err as Error).message}`));
      return;
    }
    setBusy(true);
    setConflict(null);
    try {
      if (!overwrite && draft) {
        const now = await http.get<ProgramDetail>(`/api/v1/programs/${detail.id}`);
        const fields = changedSince(draft.opened, now.config);
        if (fields.length) {
          setConflict({ config: now.config, fields });
          return;
        }
      }
      // The write path is recorded as the program's source (spec: provenance label). Sent laid out
      // as the editor shows it, so that a daemon message's `JSON line N` is the editor's line N.
      const sent = JSON.stringify({ ...(body as object), source: 'web:update' }, null, 2);
      await http.send('PUT', `/api/v1/programs/${detail.id}`, sent, 'application/json');
      setDraft(null);
      setError(null);
      setSaved(true);
      onSaved();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  if (text === null) {
    return (
      <div className="config">
        <pre className="code" tabIndex={0} aria-label="Configuration">
          {pretty}
        </pre>
        {saved && (
          <p className="report ok" role="status">
            Saved. A running process keeps its old command and environment until it restarts.{' '}
            <button type="button" onClick={onRestart}>
              Restart now
            </button>
          </p>
        )}
        {may(role, 'program.update') && (
          <button
            type="button"
            onClick={() => {
              edit(detail.config);
              setSaved(false);
            }}
          >
            Edit configuration
          </button>
        )}
      </div>
    );
  }
  return (
    <form
      className="config form"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <label>
        {/* One flex item: a label's items stack, and the name read as three lines. */}
        <span>
          Configuration (JSON; the same fields as <code>svc update</code>)
        </span>
        <textarea className="code" rows={Math.min(30, text.split('\n').length + 2)} value={text} onChange={(e) => setText(e.target.value)} spellCheck={false} aria-invalid={error !== null} aria-describedby={error !== null ? 'config-error' : undefined} />
      </label>
      {error !== null && (
        <p className="error-note" role="alert" id="config-error">
          {errorText(error)}
        </p>
      )}
      {conflict && (
        <div className="error-note" role="alert">
          <p>
            svcd&apos;s configuration changed while you were editing ({conflict.fields.join(', ')}), by another client, a stack apply or a Git sync: saving this text would undo that change.
          </p>
          <div className="buttons">
            <button type="button" onClick={() => edit(conflict.config)}>
              Discard my edit, load svcd&apos;s
            </button>
            <button type="button" className="danger" disabled={busy} onClick={() => void save(true)}>
              Save mine anyway
            </button>
          </div>
        </div>
      )}
      <div className="buttons">
        <button type="button" onClick={() => (setDraft(null), setError(null), setConflict(null))}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={busy}>
          Save
        </button>
      </div>
    </form>
  );
}
