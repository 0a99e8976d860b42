import type { KeyboardEvent } from 'react';
import { ApiError, errorText } from '../api/http.js';
import type { ActionType, ProgramDetail } from '../api/types.js';
import { useServices } from '../app/context.js';
import { useFeed, useLoad } from '../app/hooks.js';
import { useActions } from '../app/use-actions.js';
import { ConfigPanel } from '../components/ConfigPanel.js';
import { EventsView } from '../components/EventsView.js';
import { LogViewer } from '../components/LogViewer.js';
import { ProgramOverview } from '../components/ProgramOverview.js';
import { StatusBadge } from '../components/StatusBadge.js';
import { allowedActions } from '../logic/permissions.js';
import { PROGRAM_TABS, routeHash, type ProgramTab } from '../logic/routes.js';

const TAB_TITLES: Record<ProgramTab, string> = { overview: 'Overview', logs: 'Logs', events: 'Events', config: 'Configuration' };
const ACTIONS: ActionType[] = ['Start', 'Stop', 'Restart', 'Reload', 'Signal', 'Remove'];

const TAB_KEYS: Record<string, (i: number, n: number) => number> = {
  ArrowRight: (i, n) => (i + 1) % n,
  ArrowLeft: (i, n) => (i - 1 + n) % n,
  Home: () => 0,
  End: (_i, n) => n - 1,
};

/** The tab pattern's keys (WAI-ARIA): arrows move to the next or previous tab and open it, Home and End to the ends. */
function moveTab(e: KeyboardEvent<HTMLDivElement>, current: ProgramTab, open: (t: ProgramTab) => void): void {
  const step = TAB_KEYS[e.key];
  if (!step) return;
  e.preventDefault();
  const next = PROGRAM_TABS[step(PROGRAM_TABS.indexOf(current), PROGRAM_TABS.length)];
  open(next);
  document.getElementById(`tab-${next}`)?.focus();
}

/** One program: its state and charts, live logs, event history and configuration, as tabs. */
export function ProgramPage({ id, tab }: { id: string; tab: ProgramTab }) {
  const { http, feed, role } = useServices();
  const state = useFeed(feed);
  const detail = useLoad(() => http.get<ProgramDetail>(`/api/v1/programs/${encodeURIComponent(id)}`), id, 2000);
  const actions = useActions((type) => {
    if (type === 'Remove') location.hash = '#/programs';
    else detail.reload();
  });
  const row = state.rows.find((r) => r.id === id);
  const d = detail.data;
  const name = d?.name ?? row?.name ?? id;
  const status = row?.status ?? d?.status;
  const target = [{ id, name }];
  const allowed = allowedActions(role, ACTIONS);

  // A 404 also after a first load: removed by another client (the last state read is stale).
  if (detail.error instanceof ApiError && detail.error.status === 404) {
    return (
      <section className="page">
        <h1>Program not found</h1>
        <p>
          {d ? `${d.name} was removed. ` : ''}
          {errorText(detail.error)}
        </p>
        <a href="#/programs">Back to the programs</a>
      </section>
    );
  }
  return (
    <section className="page program-page" aria-labelledby="program-title">
      <nav className="crumbs" aria-label="Breadcrumb">
        <a href="#/programs">Programs</a> / <span>{name}</span>
      </nav>
      <div className="toolbar">
        <h1 id="program-title">{name}</h1>
        {status && <StatusBadge status={status} />}
        <span className="muted small mono">{id}</span>
        {allowed.length > 0 && (
          <div className="buttons" role="toolbar" aria-label={`Actions on ${name}`}>
            {allowed.map((a) => (
              <button key={a} type="button" className={a === 'Remove' ? 'danger' : undefined} onClick={() => actions.ask(a, target)}>
                {a === 'Signal' ? 'Signal…' : a}
              </button>
            ))}
          </div>
        )}
      </div>
      {actions.report && (
        <p className={`report ${actions.report.kind}`} role="status">
          {actions.report.text}
        </p>
      )}
      {detail.error !== null && d && <p className="error-note" role="alert">Not refreshed: {errorText(detail.error)}</p>}
      <div className="tabs" role="tablist" aria-label="Program views" onKeyDown={(e) => moveTab(e, tab, (t) => (location.hash = routeHash({ page: 'program', id, tab: t })))}>
        {PROGRAM_TABS.map((t) => (
          <a
            key={t}
            id={`tab-${t}`}
            role="tab"
            aria-selected={t === tab}
            aria-controls="program-tabpanel"
            tabIndex={t === tab ? 0 : -1}
            href={routeHash({ page: 'program', id, tab: t })}
            className={t === tab ? 'tab active' : 'tab'}
          >
            {TAB_TITLES[t]}
          </a>
        ))}
      </div>
      <div role="tabpanel" id="program-tabpanel" aria-labelledby={`tab-${tab}`}>
        {tab === 'logs' && <LogViewer id={id} />}
        {tab === 'events' && <EventsView programId={id} />}
        {tab === 'overview' && (d ? <ProgramOverview detail={d} now={state.at || Date.now()} /> : <p className="muted">Loading…</p>)}
        {tab === 'config' && (d ? <ConfigPanel detail={d} onSaved={detail.reload} onRestart={() => actions.ask('Restart', target)} /> : <p className="muted">Loading…</p>)}
      </div>
      {actions.dialog}
    </section>
  );
}
