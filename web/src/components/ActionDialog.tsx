import { useState } from 'react';
import { SIGNALS } from '../../../state/signals.js';
import type { ActionType, BatchAction } from '../api/types.js';
import { SHOWN } from '../logic/action-report.js';
import { Dialog } from './Dialog.js';

export interface Target {
  id: string;
  name: string;
}

const VERB: Record<ActionType, string> = { Start: 'Start', Stop: 'Stop', Restart: 'Restart', Reload: 'Reload', Signal: 'Send a signal to', Remove: 'Remove' };

/** Asks before an action on one or many programs; Stop and Remove offer force (as svc stop/rm --force), Signal the signal. */
export function ActionDialog(props: { type: ActionType; targets: Target[]; busy: boolean; onConfirm: (action: BatchAction) => void; onClose: () => void }) {
  const [force, setForce] = useState(false);
  const [signal, setSignal] = useState('term');
  const { type, targets } = props;
  const names = targets.slice(0, SHOWN).map((t) => t.name);
  const more = targets.length - names.length;
  const forceable = type === 'Stop' || type === 'Remove';
  const action: BatchAction = forceable ? { type, payload: { force } } : type === 'Signal' ? { type, payload: { signal } } : { type, payload: null };
  const label = `${type === 'Signal' ? `Send SIG${signal.toUpperCase()}` : type}${targets.length > 1 ? ` ${targets.length} programs` : ''}`;
  return (
    <Dialog title={`${VERB[type]} ${targets.length === 1 ? targets[0]?.name : `${targets.length} programs`}?`} onClose={props.onClose}>
      <form
        method="dialog"
        onSubmit={(e) => {
          e.preventDefault();
          props.onConfirm(action);
        }}
      >
        <ul className="target-list">
          {names.map((n) => (
            <li key={n}>{n}</li>
          ))}
          {more > 0 && <li className="muted">and {more} more</li>}
        </ul>
        {forceable && (
          <label className="check">
            <input type="checkbox" checked={force} onChange={(e) => setForce(e.target.checked)} /> Force (SIGKILL now, no grace period)
          </label>
        )}
        {type === 'Signal' && (
          <label>
            Signal{' '}
            <select value={signal} onChange={(e) => setSignal(e.target.value)} data-autofocus>
              {Object.entries(SIGNALS).map(([key, name]) => (
                <option key={key} value={key}>
                  {name}
                </option>
              ))}
            </select>
          </label>
        )}
        {type === 'Reload' && <p className="muted">A new process starts beside the running one and takes over once Healthy; without a health check it is a plain restart (docs/reload.md).</p>}
        {type === 'Remove' && <p className="warn">Removing stops the program and deletes its configuration. Its log files and event history stay.</p>}
        <div className="buttons">
          <button type="button" onClick={props.onClose}>
            Cancel
          </button>
          <button type="submit" className={type === 'Start' ? 'primary' : 'danger'} disabled={props.busy} data-autofocus={type !== 'Signal' ? true : undefined}>
            {label}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
