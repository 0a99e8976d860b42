// A token that is revoked or renewed is refused "at once" (spec, Admin secret state; docs/security.md):
// that includes the streams it already opened, the log WebSocket and the /watch event stream,
// which would otherwise keep serving the old credential until the client hangs up.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { fixture, removeRoot, startDaemon, tempRoot, TIME_SCALE, type RunningDaemon } from '../../helpers/daemon.js';
import { licensedRoot, testSigner } from '../../helpers/license.js';

const SECRET = 'streams-secret';
let d: RunningDaemon;
const as = (token: string) => ({ authorization: `Bearer ${token}` });
const viewerToken = async (name: string) => {
  const res = await d.request('POST', '/api/v1/auth/tokens', { name, role: 'viewer' }, as(SECRET));
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body as { id: string; secret: string };
};

describe('streams opened with a token end when the token is revoked or renewed', () => {
  let program = '';
  before(async () => {
    const root = tempRoot('svc-streams-');
    d = await startDaemon(root, { config: licensedRoot(root, testSigner(), { secret: SECRET }) });
    const add = await d.request('POST', '/api/v1/programs', { name: 'ticker', command: process.execPath, args: [fixture('ticker.js')] }, as(SECRET));
    assert.equal(add.status, 201, JSON.stringify(add.body));
    program = add.body.id;
  });
  after(async () => {
    await d.stop();
    removeRoot(d.root);
  });

  test('the log WebSocket of a revoked token is closed with 4401', { timeout: 30_000 * TIME_SCALE }, async () => {
    const token = await viewerToken('ws-reader');
    const ws = new WebSocket(`${d.url.replace(/^http/, 'ws')}/ws?id=${program}`, { headers: as(token.secret) });
    ws.on('error', () => undefined);
    const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    await new Promise((resolve) => ws.once('message', resolve)); // streaming
    assert.equal((await d.request('DELETE', `/api/v1/auth/tokens/${token.id}`, undefined, as(SECRET))).status, 200);
    const { code, reason } = await closed;
    assert.equal(code, 4401);
    assert.match(reason, /authentication failed/);
  });

  test('the /watch stream of a renewed token ends; the renew itself is answered', { timeout: 30_000 * TIME_SCALE }, async () => {
    const token = await viewerToken('sse-reader');
    const res = await fetch(`${d.url}/api/v1/watch`, { headers: as(token.secret) });
    assert.equal(res.status, 200);
    const reader = res.body!.getReader();
    assert.equal((await reader.read()).done, false); // the snapshot
    const renew = await d.request('POST', `/api/v1/auth/tokens/${token.id}/renew`, undefined, as(token.secret));
    assert.equal(renew.status, 200, JSON.stringify(renew.body));
    for (;;) {
      const chunk = await reader.read().catch(() => ({ done: true }));
      if (chunk.done) break;
    }
  });
});
