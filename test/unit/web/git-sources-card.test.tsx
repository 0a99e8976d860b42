import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderToStaticMarkup } from 'react-dom/server';
import type { GitSourceStatus } from '../../../stacks/git/status.js';
import { stackBanner } from '../../../stacks/stack-problems.js';
import { ServicesContext, type Services } from '../../../web/src/app/context.js';
import { GitSourcesCard } from '../../../web/src/components/GitSourcesCard.js';
import { UsageHistory } from '../../../web/src/logic/usage-history.js';

const fail = () => Promise.reject(new Error('no HTTP call expected'));
const services = (role: Services['role']): Services => ({
  http: { get: fail, send: fail },
  feed: { subscribe: () => () => undefined, current: () => ({ rows: [], loaded: true, error: null, at: 0, liveAt: 0 }), refresh: () => undefined },
  history: new UsageHistory(),
  token: () => null,
  role,
  panels: [],
});

const source: GitSourceStatus = {
  name: 'fleet',
  source: 'git:fleet',
  url: 'https://git.example/fleet.git',
  ref: 'branch main',
  path: 'svc',
  host: 'web-1',
  verify: true,
  allow_drift: false,
  interval_secs: 60,
  pinned: null,
  applied: { commit: '4f2a9c81d3e0aaaaaaaaaaaaaaaaaaaaaaaaaaaa', time: Date.UTC(2026, 0, 1), subject: 'web: 4 workers', applied_at: Date.UTC(2026, 0, 1, 0, 1) },
  head: '9b1e0f3a77c2bbbbbbbbbbbbbbbbbbbbbbbbbbbb',
  last_fetch: { at: Date.UTC(2026, 0, 1, 0, 2), ok: true },
  last_error: { at: Date.UTC(2026, 0, 1, 0, 2), commit: '9b1e0f3a77c2bbbbbbbbbbbbbbbbbbbbbbbbbbbb', message: 'commit 9b1e0f3a77c2 refused (4f2a9c81d3e0 keeps running): svc/base/web.toml:7:11: invalid value' },
  failures: 1,
  lines: ['unchanged web'],
};

const render = (sources: GitSourceStatus[], role: Services['role'] = null) =>
  renderToStaticMarkup(
    <ServicesContext.Provider value={services(role)}>
      <GitSourcesCard sources={sources} onSynced={() => undefined} />
    </ServicesContext.Provider>,
  );

test('the git sources card shows the commit in force, the error with its position, and Sync now for operators', () => {
  const html = render([source]);
  assert.match(html, /<b>fleet<\/b>/);
  assert.match(html, /tone-bad">error/);
  assert.match(html, /4f2a9c81d3e0<\/span> “web: 4 workers”/);
  assert.match(html, /svc\/base\/web\.toml:7:11: invalid value/);
  assert.match(html, /Sync now/);
  assert.doesNotMatch(render([source], 'viewer'), /Sync now/);
  assert.match(render([{ ...source, last_error: null, pinned: source.applied!.commit }]), /tone-good">ok.*pinned 4f2a9c81d3e0/s);
  assert.match(render([]), /No git sources/);
});

test('the banner: one line for every refused source, nothing when all is well', () => {
  const body = { dir: '/s', watching: true, files: [{ file: 'a.toml', state: 'error' as const, message: 'a.toml:3:1: bad', lines: [], at: 1 }], git: [source] };
  assert.equal(stackBanner(body), 'warning: 2 stack sources refused, the last good state keeps running: stack:a.toml: a.toml:3:1: bad (+1 more); see svc stack status');
  assert.equal(stackBanner({ ...body, files: [], git: [{ ...source, last_error: null }] }), null);
});
