// URL credentials of artifact.source and health_check.url are redacted for roles below admin
// (docs/security.md, "What secrets redacted means") on every route that serves them, and svcd's
// own messages (OTA events and reasons) name the URL without them for everyone.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, removeRoot, startDaemon, tempRoot, type RunningDaemon } from '../../helpers/daemon.js';
import { licensedRoot, testSigner } from '../../helpers/license.js';

const SECRET = 'redaction-secret';
const SOURCE = 'http://u:artpassword@127.0.0.1:1/a.bin?sig=artsigvalue';
const SHOWN = 'http://u:[redacted]@127.0.0.1:1/a.bin?sig=[redacted]';
let d: RunningDaemon;
const as = (token: string) => ({ authorization: `Bearer ${token}` });

describe('URL credentials of an artifact source', () => {
  let id = '';
  let viewer = '';
  before(async () => {
    const root = tempRoot('svc-redaction-');
    d = await startDaemon(root, { config: licensedRoot(root, testSigner(), { secret: SECRET }) });
    const created = await d.request('POST', '/api/v1/auth/tokens', { name: 'watcher', role: 'viewer' }, as(SECRET));
    viewer = created.body.secret;
    const add = await d.request('POST', '/api/v1/programs', { name: 'app', command: 'sleep', args: ['600'], artifact: { source: SOURCE, checksum: 'a'.repeat(64), destination: `${root}/app.bin` } }, as(SECRET));
    assert.equal(add.status, 201, JSON.stringify(add.body));
    id = add.body.id;
  });
  after(async () => {
    await d.stop();
    removeRoot(d.root);
  });

  test('GET /ota and /programs/{id}/ota redact it below admin, and show it to an admin', async () => {
    const one = await d.request('GET', `/api/v1/programs/${id}/ota`, undefined, as(viewer));
    assert.equal(one.status, 200);
    assert.equal(one.body.artifact.source, SHOWN);
    const all = await d.request('GET', '/api/v1/ota', undefined, as(viewer));
    assert.deepEqual(all.body.map((s: { artifact: { source: string } }) => s.artifact.source), [SHOWN]);
    assert.equal((await d.request('GET', `/api/v1/programs/${id}/ota`, undefined, as(SECRET))).body.artifact.source, SOURCE);
  });

  test('the ota_started event names the source without its credentials', async () => {
    const started = await eventually(async () => {
      const events = (await d.request('GET', `/api/v1/programs/${id}/events`, undefined, as(viewer))).body as { event: string; msg: string }[];
      return events.find((e) => e.event === 'ota_started');
    }, 10_000, 'ota_started');
    assert.match(started.msg, /from http:\/\/u:\[redacted\]@127\.0\.0\.1:1\/a\.bin\?sig=\[redacted\]/);
    const everything = JSON.stringify((await d.request('GET', '/api/v1/events', undefined, as(SECRET))).body);
    assert.ok(!everything.includes('artpassword') && !everything.includes('artsigvalue'), everything);
  });
});
