import { useState } from 'react';
import { ApiError, errorText } from '../api/http.js';
import { useServices } from '../app/context.js';
import { EMPTY_FORM, FormError, formFieldOfMessage, formToConfig, type ProgramForm } from '../logic/program-form.js';
import { Dialog } from './Dialog.js';

/**
 * Registers a program (`POST /api/v1/programs`). The daemon validates; its message is shown
 * under the field it names (or above the buttons when it names another field).
 */
export function AddProgramDialog(props: { onClose: () => void; onAdded: (id: string, name: string) => void }) {
  const { http, feed } = useServices();
  const [form, setForm] = useState<ProgramForm>(EMPTY_FORM);
  const [error, setError] = useState<{ field: string | null; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof ProgramForm>(k: K, v: ProgramForm[K]) => setForm((f) => ({ ...f, [k]: v }));
  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      const res = await http.send<{ id: string }>('POST', '/api/v1/programs', formToConfig(form));
      feed.refresh();
      props.onAdded(res.id, form.name.trim());
    } catch (err) {
      const text = errorText(err);
      const field = err instanceof FormError ? err.field : err instanceof ApiError ? formFieldOfMessage(text, form) : null;
      setError({ field, text });
    } finally {
      setBusy(false);
    }
  };
  const note = (field: string) =>
    error?.field === field ? (
      <span className="field-error" role="alert" id={`err-${field}`}>
        {error.text}
      </span>
    ) : null;
  const described = (field: string) => (error?.field === field ? { 'aria-invalid': true, 'aria-describedby': `err-${field}` } : {});
  return (
    <Dialog title="Add a program" onClose={props.onClose} wide>
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <label>
          Name <input name="name" value={form.name} onChange={(e) => set('name', e.target.value)} data-autofocus required {...described('name')} />
          {note('name')}
        </label>
        <label>
          Command <input name="command" value={form.command} onChange={(e) => set('command', e.target.value)} placeholder="/usr/bin/python3" {...described('command')} />
          {note('command')}
        </label>
        <label>
          Arguments <input name="args" value={form.args} onChange={(e) => set('args', e.target.value)} placeholder={'-m http.server 8080 (quotes group: "a b")'} {...described('args')} />
          {note('args')}
        </label>
        <label>
          Working directory <input name="cwd" value={form.cwd} onChange={(e) => set('cwd', e.target.value)} {...described('cwd')} />
          {note('cwd')}
        </label>
        <label>
          Environment (KEY=VALUE, one a line) <textarea name="env" rows={3} value={form.env} onChange={(e) => set('env', e.target.value)} {...described('env')} />
          {note('env')}
        </label>
        <div className="row">
          <label>
            Restart on exit{' '}
            <select name="autorestart" value={form.autorestart} onChange={(e) => set('autorestart', e.target.value as ProgramForm['autorestart'])}>
              <option value="unexpected">when the exit code is unexpected</option>
              <option value="true">always</option>
              <option value="false">never</option>
            </select>
            {note('autorestart')}
          </label>
          <label className="check">
            <input type="checkbox" name="autostart" checked={form.autostart} onChange={(e) => set('autostart', e.target.checked)} /> Start now and at boot
          </label>
        </div>
        <label>
          Cron schedule (optional) <input name="cron" value={form.cron} onChange={(e) => set('cron', e.target.value)} placeholder="*/5 * * * *" {...described('cron')} />
          {note('cron')}
        </label>
        <label>
          Other fields (JSON object, optional){' '}
          <textarea name="extra" rows={3} value={form.extra} onChange={(e) => set('extra', e.target.value)} placeholder={'{"health_check": {"type": "tcp", "port": 8080}, "depends_on": ["db"]}'} {...described('extra')} />
          {note('extra')}
        </label>
        {error && error.field === null && (
          <p className="error-note" role="alert">
            {error.text}
          </p>
        )}
        <div className="buttons">
          <button type="button" onClick={props.onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={busy}>
            Add program
          </button>
        </div>
      </form>
    </Dialog>
  );
}
