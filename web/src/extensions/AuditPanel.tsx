import { useState } from 'react';
import { useServices } from '../app/context.js';
import { useLoad } from '../app/hooks.js';
import { ErrorNote } from '../components/ErrorNote.js';
import { cellText, columnsOf, listOf } from './shapes.js';

const PAGE = 100;

/** The security plugin's append-only operation audit log, newest first, a page at a time. */
export function AuditPanel() {
  const { http } = useServices();
  const [offset, setOffset] = useState(0);
  const [q, setQ] = useState('');
  const path = `/api/v1/audit?${new URLSearchParams({ limit: String(PAGE), offset: String(offset), order: 'desc' })}`;
  const audit = useLoad(async () => listOf<Record<string, unknown>>(await http.get(path), 'entries'), path, 5000);
  const rows = (audit.data ?? []).filter((r) => !q.trim() || JSON.stringify(r).toLowerCase().includes(q.trim().toLowerCase()));
  const cols = columnsOf(rows);
  return (
    <div className="panel audit-panel">
      <div className="toolbar">
        <input type="search" placeholder="Search this page" aria-label="Search the audit log" value={q} onChange={(e) => setQ(e.target.value)} />
      </div>
      <ErrorNote error={audit.error} />
      <div className="table-scroll">
        <table className="data">
          <thead>
            <tr>
              {cols.map((c) => (
                <th key={c}>{c}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={`${offset}-${i}`}>
                {cols.map((c) => (
                  <td key={c}>{cellText(c, r[c])}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        {rows.length === 0 && !audit.loading && <p className="empty">No audit entries.</p>}
      </div>
      <div className="pager">
        <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
          ← Newer
        </button>
        <button type="button" disabled={(audit.data ?? []).length < PAGE} onClick={() => setOffset(offset + PAGE)}>
          Older →
        </button>
      </div>
    </div>
  );
}
