// svc export below admin: svcd serves env values and URL credentials as [redacted] to viewers and
// operators (docs/security.md). Written out, the marker would replace the real values: a stack
// that re-applied the file would overwrite them, and units would run with it. The export refuses.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeRoot, startDaemon, tempRoot, type RunningDaemon } from '../helpers/daemon.js';
import { licensedRoot, testSigner } from '../helpers/license.js';
import { runCli } from '../helpers/cli.js';

const SECRET = 'export-redacted-secret';
let d: RunningDaemon;
let work: string;
let viewer = '';
const as = (token: string) => ({ authorization: `Bearer ${token}` });

before(async () => {
  const root = tempRoot('svc-export-redacted-');
  d = await startDaemon(root, { config: licensedRoot(root, testSigner(), { secret: SECRET }) });
  work = tempRoot('svc-export-redacted-work-');
  viewer = (await d.request('POST', '/api/v1/auth/tokens', { name: 'reader', role: 'viewer' }, as(SECRET))).body.secret;
  const add = (body: object) => d.request('POST', '/api/v1/programs', { command: 'sleep', args: ['600'], autostart: false, ...body }, as(SECRET));
  assert.equal((await add({ name: 'web', env: { DB_PASSWORD: 'hunter2-very-secret', PORT: '8080' } })).status, 201);
  assert.equal((await add({ name: 'plain' })).status, 201);
});
after(async () => {
  await d.stop();
  removeRoot(d.root);
  removeRoot(work);
});

const svc = (token: string, ...args: string[]) => runCli(args, { SVC_URL: d.url, SVC_TOKEN: token }, work);

test('a viewer export of programs with secrets is refused, naming them, and writes nothing', async () => {
  for (const format of ['stack', 'systemd', 'nomad']) {
    const res = await svc(viewer, 'export', '--format', format, '-o', join(work, `out-${format}`));
    assert.equal(res.code, 1, `${format}: ${res.stdout}${res.stderr}`);
    assert.match(res.stderr, /served secrets of this program redacted to this credential .*: web: env; an export would write \[redacted\] in their place/);
    assert.ok(!existsSync(join(work, `out-${format}`)), `${format}: nothing written`);
  }
});

test('a viewer exports programs without secrets; an admin exports everything with its values', async () => {
  const plain = await svc(viewer, 'export', 'plain');
  assert.equal(plain.code, 0, plain.stderr);
  assert.match(plain.stdout, /name = "plain"/);
  const all = await svc(SECRET, 'export', '-o', join(work, 'all.toml'));
  assert.equal(all.code, 0, all.stderr);
  assert.match(readFileSync(join(work, 'all.toml'), 'utf8'), /DB_PASSWORD = "hunter2-very-secret"/);
});
