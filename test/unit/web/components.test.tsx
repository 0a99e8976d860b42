import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { ServicesContext, type Services } from '../../../web/src/app/context.js';
import { ProgramTable, ROW_HEIGHT } from '../../../web/src/components/ProgramTable.js';
import { PlanView } from '../../../web/src/components/PlanView.js';
import { ProgramOverview } from '../../../web/src/components/ProgramOverview.js';
import type { ProgramDetail } from '../../../web/src/api/types.js';
import { ExtensionPage } from '../../../web/src/extensions/ExtensionPage.js';
import { ProgramsPage } from '../../../web/src/pages/ProgramsPage.js';
import { parsePlan } from '../../../web/src/logic/plan.js';
import { UsageHistory } from '../../../web/src/logic/usage-history.js';
import { row } from './rows.js';
import { idleOtaView } from '../../helpers/ota-fakes.js';

/** Services whose every HTTP call fails the test: a rendered piece must not call the daemon. */
function services(over: Partial<Services> = {}): Services {
  const fail = () => Promise.reject(new Error('no HTTP call expected'));
  return {
    http: { get: fail, send: fail },
    feed: { subscribe: () => () => undefined, current: () => ({ rows: [], loaded: true, error: null, at: 0, liveAt: 0 }), refresh: () => undefined },
    history: new UsageHistory(),
    token: () => null,
    role: null,
    panels: [],
    ...over,
  };
}

const withServices = (node: ReactNode, over: Partial<Services> = {}) => renderToStaticMarkup(<ServicesContext.Provider value={services(over)}>{node}</ServicesContext.Provider>);

const noop = () => undefined;

test('the table puts only the first window of 500 programs in the DOM, with the rest as padding', () => {
  const rows = Array.from({ length: 500 }, (_, i) => row(`p${String(i).padStart(3, '0')}`, { id: `id${i}` }));
  const html = renderToStaticMarkup(
    <ProgramTable rows={rows} marked={new Set(['id1'])} cursor="id0" sort={{ column: 'name', desc: false }} now={5000} onSort={noop} onMark={noop} onMarkAll={noop} onCursor={noop} onKey={noop} />,
  );
  const rendered = html.match(/<tr[^>]*data-id=/g) ?? [];
  assert.ok(rendered.length > 10 && rendered.length <= 40, `rendered ${rendered.length} rows`);
  assert.match(html, /data-name="p000"/);
  assert.doesNotMatch(html, /data-name="p499"/);
  const pad = /class="pad" style="height:(\d+)px"/.exec(html);
  assert.equal(Number(pad?.[1]), (500 - rendered.length) * ROW_HEIGHT);
  assert.match(html, /aria-sort="ascending"/);
  assert.match(html, /class="cursor"/);
  assert.match(html, /aria-selected="true"/);
});

test('a row shows status, pid, cpu, memory, uptime, restarts, health, next run and source', () => {
  const html = renderToStaticMarkup(
    <ProgramTable
      rows={[row('web', { status: 'Healthy', pid: 42, cpu_usage: 12.345, mem_usage: 3 * 1024 * 1024, started_at: 1000, restarts: 2, check: 'http', source: 'stack:web.toml' })]}
      marked={new Set()}
      cursor={null}
      sort={{ column: 'cpu', desc: true }}
      now={66_000}
      onSort={noop}
      onMark={noop}
      onMarkAll={noop}
      onCursor={noop}
      onKey={noop}
    />,
  );
  for (const text of ['Healthy', '>42<', '12.3%', '3.0 MiB', '1m5s', '>2<', '>ok<', 'stack:web.toml']) assert.ok(html.includes(text), `missing ${text}`);
  assert.match(html, /aria-sort="descending"/);
});

test('the plan view groups created, updated (restart marked) and pruned', () => {
  const html = renderToStaticMarkup(<PlanView plan={parsePlan(['created web', 'updated api (restart)', 'pruned old'])} done={false} />);
  assert.match(html, /Dry run:<\/b> 1 to create, 1 to update \(1 restart\), 1 to prune/);
  assert.match(html, /plan-created[\s\S]*web/);
  assert.match(html, /plan-updated[\s\S]*api[\s\S]*restarts/);
  assert.match(html, /plan-pruned[\s\S]*old/);
  assert.doesNotMatch(html, /plan-unchanged/);
});

test('an extension panel the daemon does not list is not drawn, and calls nothing', () => {
  const html = withServices(<ExtensionPage panel="tokens" />);
  assert.match(html, /needs the ui plugin/);
  assert.doesNotMatch(html, /Create token/);
  const listed = withServices(<ExtensionPage panel="tokens" />, { panels: [{ id: 'tokens', title: 'Tokens' }], role: 'admin' });
  assert.match(listed, /Create token/);
});

test('the overview shows whether resource_limits are enforced, and why not', () => {
  const state = { status: 'Running', pid: 42, started_at: 0, uptime_secs: 1, retries: 0, restarts: 0, next_retry_at: null, last_exit: null, detail: null, health: null, cpu_usage: 0, mem_usage: 0 };
  const detail = (isolation: NonNullable<ProgramDetail['state']['isolation']>) => ({ ...row('web'), config: { name: 'web', command: 'x', resource_limits: { memory_limit: 1e8 } }, state: { ...state, isolation } });
  const not = withServices(<ProgramOverview detail={detail({ enforced: false, reason: 'isolation plugin not loaded', cgroup: null, oom_kills: 0, status: 'limits not enforced: isolation plugin not loaded' })} now={1000} />);
  assert.match(not, /<dt>Limits<\/dt><dd>limits not enforced: isolation plugin not loaded<\/dd>/);
  const yes = withServices(<ProgramOverview detail={detail({ enforced: true, reason: null, cgroup: '/sys/fs/cgroup/svc/x', oom_kills: 2, status: 'enforced (cgroup /sys/fs/cgroup/svc/x)' })} now={1000} />);
  assert.match(yes, /enforced \(cgroup \/sys\/fs\/cgroup\/svc\/x\) · 2 OOM kill\(s\)/);
});

test('the overview shows an OTA update, with how far its download has come', () => {
  const state = { status: 'Running', pid: 42, started_at: 0, uptime_secs: 1, retries: 0, restarts: 0, next_retry_at: null, last_exit: null, detail: null, health: null, cpu_usage: 0, mem_usage: 0 };
  const ota = idleOtaView('a'.repeat(64), { phase: 'downloading', target: 'b'.repeat(64), download: { received_bytes: 3 * 1024 * 1024, total_bytes: 12 * 1024 * 1024 } });
  const html = withServices(<ProgramOverview detail={{ ...row('app'), config: { name: 'app', command: '/opt/app' }, state: { ...state, ota } }} now={1000} />);
  assert.match(html, /<dt>Update \(OTA\)<\/dt><dd>downloading 3\.0 MiB of 12 MiB \(25%\) +installed: aaaaaaaaaaaa -&gt; bbbbbbbbbbbb/);
  const none = withServices(<ProgramOverview detail={{ ...row('plain'), config: { name: 'plain', command: 'x' }, state }} now={1000} />);
  assert.doesNotMatch(none, /Update \(OTA\)/, 'no artifact, no line');
});

test('an empty table says whether there are no programs at all or none matches the filter', () => {
  const table = (total: number) =>
    renderToStaticMarkup(<ProgramTable rows={[]} total={total} marked={new Set()} cursor={null} sort={{ column: 'name', desc: false }} now={0} onSort={noop} onMark={noop} onMarkAll={noop} onCursor={noop} onKey={noop} />);
  assert.match(table(0), /No programs yet/);
  assert.doesNotMatch(table(0), /No programs match/);
  assert.match(table(3), /No programs match the filter/);
});

test('while svcd does not answer, the program table is greyed and says since when its rows date (they read as live states)', () => {
  const liveAt = new Date(2026, 10, 24, 10, 31, 7).getTime();
  const page = (error: string | null) =>
    withServices(<ProgramsPage />, { feed: { subscribe: () => () => undefined, current: () => ({ rows: [row('web', { status: 'Running', pid: 42 })], loaded: true, error, at: liveAt + 9000, liveAt }), refresh: noop } });
  const down = page('svcd is not reachable');
  assert.match(down, /class="table-box stale"[^>]*aria-label="Programs, 1 shown, not live"/);
  assert.match(down, /not live: as svcd last sent them at 10:31:07/);
  const live = page(null);
  assert.match(live, /class="table-box"[^>]*aria-label="Programs, 1 shown"/);
  assert.match(live, /live from svcd/);
});
