import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { WatchMessage } from '../../api/wire.js';
import { ApiClient } from '../../tui/client/http.js';
import { openWatch } from '../../tui/client/watch.js';
import { eventually, fixture, removeRoot, startDaemon } from '../helpers/daemon.js';

/** A watch stream opened with the CLI's client; `messages` collects what arrives. */
async function watch(url: string, token?: string) {
  const messages: WatchMessage[] = [];
  const ended: Error[] = [];
  const close = await openWatch(new ApiClient({ url, token }), { message: (m) => messages.push(m), end: (err) => ended.push(err) });
  return { messages, ended, close };
}

const programMessages = (messages: WatchMessage[], name: string) => messages.flatMap((m) => (m.type === 'program' && m.program.name === name ? [m.program] : []));

void test('GET /api/v1/watch: a snapshot, then program changes, removals and the system line', async () => {
  const d = await startDaemon();
  try {
    const created = await d.request('POST', '/api/v1/programs', { name: 'before', command: process.execPath, args: [fixture('forever.js')], source: 'stack:w.toml' });
    const w = await watch(d.url);
    await eventually(() => w.messages.length > 0, 5000, 'the snapshot');
    const first = w.messages[0];
    assert.equal(first?.type, 'snapshot');
    if (first?.type !== 'snapshot') return;
    assert.deepEqual(first.programs.map((p) => [p.id, p.name, p.source]), [[created.body.id, 'before', 'stack:w.toml']]);

    const added = await d.request('POST', '/api/v1/programs', { name: 'after', command: process.execPath, args: [fixture('forever.js')] });
    const running = await eventually(() => programMessages(w.messages, 'after').find((p) => p.status === 'Running' && p.pid), 10_000, 'after Running');
    assert.equal(running.id, added.body.id);
    assert.ok(running.started_at && running.started_at > 0);
    assert.equal(running.health, null);

    await d.request('DELETE', `/api/v1/programs/${added.body.id}`);
    await eventually(() => w.messages.some((m) => m.type === 'removed' && m.id === added.body.id), 10_000, 'removed');
    await eventually(() => w.messages.some((m) => m.type === 'system'), 10_000, 'a system line');
    // The stream agrees with the list.
    const list = (await d.request('GET', '/api/v1/programs')).body as { id: string; status: string }[];
    assert.deepEqual(list.map((p) => p.id), [created.body.id]);
    w.close();
    assert.deepEqual(w.ended, [], 'closing is not an error');
  } finally {
    await d.stop();
    removeRoot(d.root);
  }
});

void test('the watch route is guarded like every route; a dead daemon ends the stream', async () => {
  const d = await startDaemon(undefined, { config: '[server]\nport = 0\nauth_secret = "w4tch"\n' });
  try {
    await assert.rejects(watch(d.url), (err: Error & { status?: number }) => err.status === 401 && /authentication required/.test(err.message));
    const w = await watch(d.url, 'w4tch');
    await eventually(() => w.messages[0]?.type === 'snapshot', 5000, 'the snapshot');
    await d.stop();
    await eventually(() => w.ended.length === 1, 10_000, 'the stream to end');
    assert.match(w.ended[0]?.message ?? '', /svcd at http:\/\/127\.0\.0\.1:\d+ (closed the stream|did not answer in time)|cannot reach svcd/);
  } finally {
    await d.stop();
    removeRoot(d.root);
  }
});
