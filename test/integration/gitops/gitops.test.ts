import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, fixture, removeRoot, startDaemon, tempRoot, type RunningDaemon } from '../../helpers/daemon.js';
import { runCli } from '../../helpers/cli.js';
import { createRepo, signingKey, type TestRepo } from '../../helpers/git-repo.js';

// One repository drives two daemons (hosts alpha and beta) through base/ + hosts/<host>/ overlays.
const FOREVER = fixture('forever.js');
const svc = (name: string, extra = '') => `[[services]]\nname = "${name}"\ncommand = "${process.execPath}"\nargs = ["${FOREVER}"]\n${extra}\n`;

let work: string;
let repo: TestRepo;
let signedRepo: TestRepo;
let alpha: RunningDaemon;
let beta: RunningDaemon;
let allowedSigners: string;
let key: string;
let first: string;

const config = (host: string, extra = '') =>
  `[server]\nport = 0\n[stacks]\nhost = "${host}"\n[[stacks.git]]\nname = "fleet"\nurl = "${repo.url}"\nbranch = "main"\npath = "deploy"\ninterval_secs = 3600\n${extra}`;

before(async () => {
  work = tempRoot('svc-gitops-');
  repo = createRepo(work, 'fleet');
  repo.write('deploy/base/apps.toml', svc('g-web', 'env = { ROLE = "base" }') + svc('g-worker', 'autostart = false'));
  repo.write('deploy/hosts/alpha/apps.toml', '[[services]]\nname = "g-web"\nenv = { ROLE = "alpha" }\n');
  repo.write('deploy/hosts/beta/apps.toml', svc('g-beta-only', 'autostart = false'));
  repo.write('README.md', 'not a stack\n');
  first = repo.commit('first stacks');
  signedRepo = createRepo(work, 'signed');
  ({ key, allowedSigners } = signingKey(work));
  signedRepo.write('apps.toml', svc('g-signed', 'autostart = false'));
  signedRepo.commit('signed stack', { sign: key });
  const signedSource = `[[stacks.git]]\nname = "signed"\nurl = "${signedRepo.bare}"\ninterval_secs = 3600\nallowed_signers = "${allowedSigners}"\n`;
  [alpha, beta] = await Promise.all([startDaemon(tempRoot(), { config: config('alpha', signedSource) }), startDaemon(tempRoot(), { config: config('beta') })]);
});
after(async () => {
  await Promise.all([alpha?.stop(), beta?.stop()]);
  for (const d of [alpha, beta]) if (d) removeRoot(d.root);
  removeRoot(work);
});

type Program = { name: string; id: string; status: string };
const programs = async (d: RunningDaemon) => (await d.request<Program[]>('GET', '/api/v1/programs')).body;
const detail = async (d: RunningDaemon, name: string) => {
  const p = (await programs(d)).find((x) => x.name === name);
  return p ? (await d.request('GET', `/api/v1/programs/${p.id}`)).body : undefined;
};
const names = async (d: RunningDaemon) => (await programs(d)).map((p) => p.name).sort();
const gitStatus = async (d: RunningDaemon, name = 'fleet') => ((await d.request('GET', '/api/v1/stack/status')).body.git as any[]).find((g) => g.name === name);
const cli = (d: RunningDaemon, ...args: string[]) => runCli(['--url', d.url, ...args]);

test('first sync at start: each host converges to base plus its own overlay; programs carry git:<name>', async () => {
  // Each source syncs on its own: alpha's signed source may apply after fleet on a loaded machine.
  await eventually(async () => (await gitStatus(alpha))?.applied?.commit === first && (await gitStatus(beta))?.applied?.commit === first && (await gitStatus(alpha, 'signed'))?.applied != null, 20_000, 'both applied');
  assert.deepEqual(await names(alpha), ['g-signed', 'g-web', 'g-worker']);
  assert.deepEqual(await names(beta), ['g-beta-only', 'g-web', 'g-worker']);
  const a = await detail(alpha, 'g-web');
  assert.equal(a.config.env.ROLE, 'alpha', 'the alpha overlay overrides env');
  assert.equal(a.config.command, process.execPath, 'fields the overlay does not set come from base');
  assert.equal((await detail(beta, 'g-web')).config.env.ROLE, 'base');
  assert.equal(a.config.source, 'git:fleet');
  const s = await gitStatus(alpha);
  assert.equal(s.applied.subject, 'first stacks');
  assert.equal(s.last_fetch.ok, true);
  assert.equal(s.last_error, null);
  await eventually(async () => (await programs(alpha)).find((p) => p.name === 'g-web')?.status === 'Running', 15_000, 'g-web running');
});

test('a pushed change and a removal: POST /api/v1/stack/sync applies them; the removed program is pruned', async () => {
  repo.write('deploy/base/apps.toml', svc('g-web', 'env = { ROLE = "base" }') + svc('g-worker', 'autostart = false\nenv = { CHANGED = "1" }'));
  const change = repo.commit('worker args');
  const res = await alpha.request('POST', '/api/v1/stack/sync?source=fleet');
  assert.equal(res.status, 200);
  assert.equal(res.body.sources[0].applied.commit, change);
  assert.ok(res.body.sources[0].lines.includes('updated g-worker'), JSON.stringify(res.body.sources[0].lines));
  assert.equal((await detail(alpha, 'g-worker')).config.env.CHANGED, '1');

  repo.write('deploy/base/apps.toml', svc('g-web', 'env = { ROLE = "base" }'));
  const removal = repo.commit('drop worker');
  const out = await cli(alpha, 'sync', 'fleet');
  assert.equal(out.code, 0, out.stderr);
  assert.match(out.stdout, /git:fleet: [0-9a-f]{12} "drop worker": pruned g-worker/);
  assert.deepEqual(await names(alpha), ['g-signed', 'g-web']);
  // The other host converges from the same repository.
  await beta.request('POST', '/api/v1/stack/sync');
  assert.equal((await gitStatus(beta)).applied.commit, removal);
  assert.deepEqual(await names(beta), ['g-beta-only', 'g-web']);
});

test('a bad commit changes nothing, keeps the last good commit, and is visible with path:line:col and the commit', async () => {
  const good = (await gitStatus(alpha)).applied.commit;
  repo.write('deploy/base/apps.toml', svc('g-web', 'env = { ROLE = "base" }') + '[[services]]\nname = "g-new"\ncommand = \n');
  const bad = repo.commit('broken push');
  const res = await alpha.request('POST', '/api/v1/stack/sync?source=fleet');
  assert.equal(res.body.status, 'error');
  const s = await gitStatus(alpha);
  assert.equal(s.applied.commit, good);
  assert.equal(s.last_error.commit, bad);
  assert.match(s.last_error.message, new RegExp(`commit ${bad.slice(0, 12)} refused .*deploy/base/apps\\.toml:\\d+:\\d+: `, 's'));
  assert.deepEqual(await names(alpha), ['g-signed', 'g-web']);

  const list = await cli(alpha, 'list');
  assert.match(list.stderr, /^warning: 1 stack source refused.*git:fleet: commit [0-9a-f]{12} refused/m);
  const status = await cli(alpha, 'stack', 'status');
  assert.match(status.stdout, /git source fleet .*\n {2}applied {3}[0-9a-f]{12} "drop worker"/);
  assert.match(status.stdout, /deploy\/base\/apps\.toml:\d+:\d+:/);
  // The history is written behind the sync's answer: wait for the record.
  await eventually(async () => JSON.stringify((await alpha.request('GET', '/api/v1/events?event_type=stack_apply_failed&limit=1000')).body).includes(bad.slice(0, 12)), 5000, 'stack_apply_failed naming the commit');
  const metrics = await (await fetch(`${alpha.url}/metrics`)).text();
  assert.match(metrics, /svc_gitops_source_error\{source="fleet"\} 1/);
  assert.match(metrics, /svc_gitops_sync_failures_total\{source="fleet"\} [1-9]/);
  assert.match(metrics, /svc_gitops_applied_commit_age_seconds\{source="fleet"\} \d/);

  // The revert is a new commit: it applies and clears the error.
  repo.git('revert', '--no-edit', 'HEAD');
  repo.git('push', '--quiet', 'origin', 'main');
  const fixed = await alpha.request('POST', '/api/v1/stack/sync?source=fleet');
  assert.equal(fixed.body.status, 'ok');
  assert.equal((await gitStatus(alpha)).last_error, null);
});

test('drift: a config change of a git-owned program is refused naming the source; start/stop stay allowed', async () => {
  const web = (await programs(alpha)).find((p) => p.name === 'g-web')!;
  const put = await alpha.request('PUT', `/api/v1/programs/${web.id}`, { env: { ROLE: 'hand' } });
  assert.equal(put.status, 409);
  assert.match(put.body.message, /owned by git source 'fleet'.*in the repository .*fleet\.git/);
  const del = await alpha.request('DELETE', `/api/v1/programs/${web.id}`);
  assert.equal(del.status, 409);
  // Another stack may not take it over either.
  const apply = await alpha.request('PUT', '/api/v1/stack?source=stack:other', { services: [{ name: 'g-web', command: 'sleep 1' }] });
  assert.equal(apply.status, 409);
  assert.equal((await alpha.request('POST', `/api/v1/programs/${web.id}/stop`)).status, 200);
  assert.equal((await alpha.request('POST', `/api/v1/programs/${web.id}/start`)).status, 200);
});

test('svc diff shows live against the repository; svc sync --to pins an older commit until --unpin', async () => {
  const diff = await cli(alpha, 'diff', 'fleet');
  assert.equal(diff.code, 0, diff.stderr);
  assert.match(diff.stdout, /git:fleet at [0-9a-f]{12}.*: in sync/);
  const pin = await cli(alpha, 'sync', 'fleet', '--to', first.slice(0, 10));
  assert.equal(pin.code, 0, pin.stderr);
  assert.match(pin.stdout, /pinned to/);
  assert.deepEqual(await names(alpha), ['g-signed', 'g-web', 'g-worker']);
  assert.equal((await gitStatus(alpha)).pinned, first);
  const unpin = await cli(alpha, 'sync', 'fleet', '--unpin');
  assert.equal(unpin.code, 0, unpin.stderr);
  assert.deepEqual(await names(alpha), ['g-signed', 'g-web']);
  assert.equal((await gitStatus(alpha)).pinned, null);
});

test('a signed-only source refuses an unsigned commit and applies a signed one', async () => {
  assert.equal((await gitStatus(alpha, 'signed')).applied.subject, 'signed stack');
  signedRepo.write('apps.toml', svc('g-signed', 'autostart = false') + svc('g-intruder', 'autostart = false'));
  const unsigned = signedRepo.commit('unsigned push');
  const res = await alpha.request('POST', '/api/v1/stack/sync?source=signed');
  assert.equal(res.body.status, 'error');
  const s = await gitStatus(alpha, 'signed');
  assert.equal(s.last_error.commit, unsigned);
  assert.match(s.last_error.message, /not signed by an allowed key/);
  assert.ok(!(await names(alpha)).includes('g-intruder'));
  signedRepo.write('apps.toml', svc('g-signed', 'autostart = false') + svc('g-signed2', 'autostart = false'));
  signedRepo.commit('signed again', { sign: key });
  const ok = await alpha.request('POST', '/api/v1/stack/sync?source=signed');
  assert.equal(ok.body.status, 'ok', JSON.stringify(ok.body));
  assert.deepEqual(await names(alpha), ['g-signed', 'g-signed2', 'g-web']);
});

test('unknown source and bad pins are clear errors', async () => {
  const res = await alpha.request('POST', '/api/v1/stack/sync?source=nope');
  assert.equal(res.status, 404);
  assert.match(res.body.message, /git source 'nope' not found/);
  const bad = await alpha.request('POST', '/api/v1/stack/sync?source=fleet&to=zzz');
  assert.equal(bad.status, 400);
  const all = await alpha.request('POST', '/api/v1/stack/sync?to=abcdef');
  assert.equal(all.status, 400);
  // svc sync says these itself, as usage errors (exit 2) in its flags' words; svcd's 400s named
  // its query parameters (`source: …`, `to: …`) and svc exited 1.
  for (const [args, message] of <[string[], string][]>[
    [['sync', '--to', 'abcdef'], '--to: name the source to pin or unpin: svc sync NAME --to COMMIT'],
    [['sync', '--unpin'], '--unpin: name the source to pin or unpin: svc sync NAME --unpin'],
    [['sync', 'fleet', '--to', 'zzz'], "--to: 'zzz' is not a commit id (4 to 64 hex digits, as git log shows it)"],
    [['sync', 'fleet', '--to', 'abcdef', '--unpin'], 'give --to or --unpin, not both'],
  ]) {
    const usage = await cli(alpha, ...args);
    assert.equal(usage.code, 2, `svc ${args.join(' ')}: ${usage.stderr}`);
    assert.equal(usage.stderr, `svc: ${message}\n`);
  }
  // The source as svc sync prints it (git:fleet) names it, as in svc diff.
  const prefixed = await cli(alpha, 'sync', 'git:fleet');
  assert.equal(prefixed.code, 0, prefixed.stderr);
  assert.match(prefixed.stdout, /^git:fleet: [0-9a-f]{12} /);
});
