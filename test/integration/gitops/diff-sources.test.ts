import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { eventually, fixture, removeRoot, startDaemon, tempRoot, type RunningDaemon } from '../../helpers/daemon.js';
import { runCli } from '../../helpers/cli.js';
import { createRepo } from '../../helpers/git-repo.js';

// svc diff of every source while one of them cannot be compared (an empty repository: nothing fetched).
const FOREVER = fixture('forever.js');
let work: string;
let daemon: RunningDaemon;
let head: string;

before(async () => {
  work = tempRoot('svc-gitops-diff-');
  const repo = createRepo(work, 'good');
  repo.write('apps.toml', `[[services]]\nname = "d-web"\ncommand = "${process.execPath}"\nargs = ["${FOREVER}"]\nautostart = false\n`);
  head = repo.commit('one program');
  const empty = join(work, 'empty.git');
  execFileSync('git', ['init', '--quiet', '--bare', empty]);
  const source = (name: string, url: string) => `[[stacks.git]]\nname = "${name}"\nurl = "${url}"\ninterval_secs = 3600\n`;
  daemon = await startDaemon(tempRoot(), { config: `[server]\nport = 0\n${source('empty', empty)}${source('good', repo.url)}` });
});
after(async () => {
  await daemon?.stop();
  if (daemon) removeRoot(daemon.root);
  removeRoot(work);
});

test('svc diff of all sources shows each one: a source that cannot be compared says why instead of hiding the others', async () => {
  const gitStatus = async () => (await daemon.request('GET', '/api/v1/stack/status')).body.git as { name: string; applied: unknown; last_fetch: unknown }[];
  await eventually(async () => (await gitStatus()).every((g) => (g.name === 'good' ? g.applied !== null : g.last_fetch !== null)), 20_000, 'both sources synced once');

  const res = await daemon.request('GET', '/api/v1/stack/diff');
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const [empty, good] = res.body.sources;
  assert.equal(empty.source, 'git:empty');
  assert.equal(empty.commit, null);
  assert.match(empty.error, /git:empty: nothing fetched yet \(svc sync empty\)/);
  assert.deepEqual([good.source, good.commit, good.in_sync, good.error], ['git:good', head, true, null]);

  const cli = await runCli(['--url', daemon.url, 'diff']);
  assert.equal(cli.code, 1, cli.stderr);
  assert.match(cli.stdout, /^git:empty: cannot compare: git:empty: nothing fetched yet \(svc sync empty\)$/m);
  assert.match(cli.stdout, new RegExp(`^git:good at ${head.slice(0, 12)}: in sync$`, 'm'));
  assert.match(cli.stderr, /1 source not compared/);

  // Naming the source still answers with the error itself.
  const one = await daemon.request('GET', '/api/v1/stack/diff?source=empty');
  assert.equal(one.status, 409);
});
