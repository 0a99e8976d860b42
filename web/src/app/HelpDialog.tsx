import { Dialog } from '../components/Dialog.js';
import { KEY_HELP } from '../logic/keys.js';

export function HelpDialog({ onClose }: { onClose: () => void }) {
  return (
    <Dialog title="Keyboard" onClose={onClose}>
      <table className="keys">
        <tbody>
          {KEY_HELP.map(([keys, what]) => (
            <tr key={keys}>
              <th>
                <kbd>{keys}</kbd>
              </th>
              <td>{what}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted small">Tab and Shift+Tab move between controls; in dialogs Enter confirms and Esc cancels.</p>
      <div className="buttons">
        <button type="button" onClick={onClose} data-autofocus>
          Close
        </button>
      </div>
    </Dialog>
  );
}
