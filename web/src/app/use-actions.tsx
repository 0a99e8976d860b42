import { useState, type ReactNode } from 'react';
import { errorText } from '../api/http.js';
import type { ActionType, BatchAction, BatchOutcome } from '../api/types.js';
import { reportOf, type ActionReport } from '../logic/action-report.js';
import { ActionDialog, type Target } from '../components/ActionDialog.js';
import { useServices } from './context.js';

/**
 * Program actions with confirmation: `ask` opens the dialog, the confirmed action goes to
 * `POST /api/v1/programs/batch`, and the outcome comes back as a report for the page to show.
 */
export function useActions(onDone?: (type: ActionType) => void): { ask: (type: ActionType, targets: Target[]) => void; dialog: ReactNode; report: ActionReport | null; clearReport: () => void } {
  const { http, feed } = useServices();
  const [pending, setPending] = useState<{ type: ActionType; targets: Target[] } | null>(null);
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<ActionReport | null>(null);
  const run = async (action: BatchAction) => {
    if (!pending) return;
    setBusy(true);
    try {
      const res = await http.send<{ results: BatchOutcome[] }>('POST', '/api/v1/programs/batch', { target_ids: pending.targets.map((t) => t.id), action });
      setReport(reportOf(action.type, res.results));
      onDone?.(action.type);
    } catch (err) {
      setReport({ kind: 'error', text: errorText(err) });
    } finally {
      setBusy(false);
      setPending(null);
      feed.refresh();
    }
  };
  const dialog = pending ? <ActionDialog type={pending.type} targets={pending.targets} busy={busy} onConfirm={(a) => void run(a)} onClose={() => setPending(null)} /> : null;
  return {
    ask: (type, targets) => {
      if (targets.length) setPending({ type, targets });
    },
    dialog,
    report,
    clearReport: () => setReport(null),
  };
}
