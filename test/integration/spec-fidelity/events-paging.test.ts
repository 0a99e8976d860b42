import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../../helpers/cli.js';
import { eventually, useDaemon } from '../../helpers/daemon.js';

/**
 * Spec, Events 5: "The CLI `svc events <name|id>` lists newest first and has flags `--limit N`, …".
 * The API's `limit` is at most 1000 (docs/events.md); the CLI pages through longer histories.
 */
const d = useDaemon();

test('svc events --limit N lists newest first: --limit 5000 pages through a history longer than the API maximum of 1000', async () => {
  // Crash loops write three events a cycle (started, exit, backoff), quick restarts paced
  // daemon-wide (docs/states.md): eight of them pass 1200 events within seconds.
  const ids: string[] = [];
  for (let i = 0; i < 8; i++) {
    const created = await d.request('POST', '/api/v1/programs', { name: `flappy-${i}`, command: 'false', autorestart: 'true', backoff_secs: 0, startsecs: 0 });
    assert.equal(created.status, 201);
    ids.push(created.body.id as string);
  }
  const total = async () => (await d.request<{ total: number }>('GET', '/api/v1/events/stats')).body.total;
  await eventually(async () => (await total()) > 1200, 60_000, 'more than 1200 events');
  for (const id of ids) assert.equal((await d.request('POST', `/api/v1/programs/${id}/stop`)).status, 200);
  // Settled: the total has not moved for a second (two reads back to back can both come before
  // the last exits and stop events are written).
  let last = { total: -1, since: 0 };
  const recorded = await eventually(async () => {
    const now = await total();
    if (now !== last.total) last = { total: now, since: Date.now() };
    return Date.now() - last.since >= 1000 ? now : null;
  }, 20_000, 'the history to settle');
  const api = await d.request('GET', '/api/v1/events?limit=5000');
  assert.equal(api.status, 400, 'the API itself stays capped');
  assert.equal(api.body.message, 'limit: must be at most 1000');

  const res = await runCli(['events', '--limit', '5000', '--json'], { SVC_URL: d.url });
  assert.equal(res.code, 0, res.stderr);
  const rows = JSON.parse(res.stdout) as { id: string }[];
  assert.equal(rows.length, recorded, 'every event of the daemon');
  assert.equal(new Set(rows.map((r) => r.id)).size, rows.length, 'none twice');
  for (let i = 1; i < rows.length; i++) assert.ok(rows[i - 1].id > rows[i].id, 'newest first');

  const one = await runCli(['events', 'flappy-0', '--limit', '5000', '--json'], { SVC_URL: d.url });
  assert.equal(one.code, 0, one.stderr);
  const own = (await d.request<{ total: number }>('GET', `/api/v1/events/stats?program_id=${ids[0]}`)).body.total;
  assert.equal((JSON.parse(one.stdout) as unknown[]).length, own, 'svc events <name> pages the same way');

  const table = await runCli(['events', '--limit', '1100'], { SVC_URL: d.url });
  assert.equal(table.code, 0, table.stderr);
  assert.equal(table.stdout.trim().split('\n').length, 1 + 1100, 'a header and 1100 rows');
});
