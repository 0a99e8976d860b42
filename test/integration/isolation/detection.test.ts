// Detection against real svcd: where limits cannot be enforced they stay stored, svcd warns once
// saying why, the detail says "limits not enforced: <reason>", nothing is written and the
// program runs. On this project's test machines (cgroup v1 hosts with a cgroup2 mount that has
// no cpu or memory controller) the first two tests exercise the real host.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually, fixture, removeRoot, startDaemon, tempRoot, type RunningDaemon } from '../../helpers/daemon.js';
import { runCli } from '../../helpers/cli.js';
import { licensedRoot, testSigner } from '../../helpers/license.js';
import { fakeCgroupTree, realCgroupSkipReason } from '../../helpers/cgroup-tree.js';
import { cgroup2MountsOf } from '../../../controllers/isolation/detect.js';

const SECRET = 'detect-secret';
const auth = { authorization: `Bearer ${SECRET}` };
const WARNING = 'resource_limits are stored but not enforced: ';

/** A cgroup2 mount of this host without the cpu or memory controller (a hybrid host's), if any. */
function cgroup2WithoutControllers(): string | null {
  for (const mount of cgroup2MountsOf(readFileSync('/proc/self/mountinfo', 'utf8'))) {
    const list = readFileSync(join(mount, 'cgroup.controllers'), 'utf8').split(/\s+/);
    if (!list.includes('cpu') || !list.includes('memory')) return mount;
  }
  return null;
}

/** Starts svcd (licensed with isolation unless `licensed` is false), adds web with limits, checks the verdict. */
async function expectNotEnforced(opts: { licensed: boolean; extra?: string }, reason: RegExp): Promise<void> {
  const root = tempRoot('svc-detect-');
  const signer = testSigner();
  const config = opts.licensed
    ? licensedRoot(root, signer, { secret: SECRET, key: signer.issue({ grants: ['security', 'isolation'] }), plugins: ['security', 'isolation'], extra: opts.extra })
    : `[server]\nport = 0\nauth_secret = "${SECRET}"\n${opts.extra ?? ''}`;
  const d: RunningDaemon = await startDaemon(root, { config });
  try {
    const created = await d.request('POST', '/api/v1/programs', { name: 'web', command: process.execPath, args: [fixture('forever.js')], resource_limits: { memory_limit: 64_000_000, cpu_quota: 20 } }, auth);
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body.id as string;
    const detail = await eventually(async () => {
      const body = (await d.request('GET', `/api/v1/programs/${id}`, undefined, auth)).body;
      return body.pid && body.state.isolation ? body : null;
    }, 10_000, 'running with an isolation verdict');
    assert.equal(detail.state.isolation.enforced, false);
    assert.match(detail.state.isolation.status, new RegExp(`^limits not enforced: ${reason.source}`));
    assert.deepEqual(detail.config.resource_limits, { memory_limit: 64_000_000, cpu_quota: 20 }, 'stored as given');
    const info = await runCli(['info', 'web'], { SVC_URL: d.url, SVC_TOKEN: SECRET, XDG_CONFIG_HOME: join(root, 'home') });
    assert.match(info.stdout, new RegExp(`limits: +limits not enforced: ${reason.source}`));
    const metrics = await (await fetch(`${d.url}/metrics`, { headers: auth })).text();
    assert.match(metrics, /^svc_cgroup_enforced_total 0$/m);
    // The licensed daemon warns at start; the unlicensed one only when a program had limits then.
    const restarted = opts.licensed ? d : null;
    if (restarted) {
      const warnings = readFileSync(join(root, 'logs', 'svcd.log'), 'utf8').split('\n').filter((l) => l.includes(WARNING));
      assert.equal(warnings.length, 1, `one warning, not ${warnings.length}`);
      assert.match(warnings[0] ?? '', reason);
    }
  } finally {
    await d.stop();
  }
  if (!opts.licensed) {
    // Again with the program stored: now the start-up warns, once.
    const again = await startDaemon(root, { config });
    try {
      await eventually(() => readFileSync(join(root, 'logs', 'svcd.log'), 'utf8').includes('svcd ready'), 10_000, 'ready');
    } finally {
      await again.stop();
    }
    const warnings = readFileSync(join(root, 'logs', 'svcd.log'), 'utf8').split('\n').filter((l) => l.includes(WARNING));
    assert.equal(warnings.length, 1, `one warning, not ${warnings.length}`);
    assert.match(warnings[0] ?? '', reason);
  }
  removeRoot(root);
}

describe('resource_limits where they cannot be enforced', () => {
  const real = realCgroupSkipReason();
  test('this host: /sys/fs/cgroup (the default root) without cgroup v2 or its controllers', { skip: real === null ? 'this host offers a writable cgroup v2 with cpu and memory: real-enforcement.test.ts covers it' : false }, async () => {
    const v1 = !existsSync('/sys/fs/cgroup/cgroup.controllers');
    await expectNotEnforced({ licensed: true }, v1 ? /no cgroup v2 at \/sys\/fs\/cgroup: it is .*cgroup v1/ : /(the cpu|the memory|no permission|read-only)/);
  });

  const bare = cgroup2WithoutControllers();
  test('this host: a cgroup2 mount without the cpu and memory controllers', { skip: bare ? false : 'no cgroup2 mount without cpu or memory on this host' }, async () => {
    await expectNotEnforced({ licensed: true, extra: `[isolation]\ncgroup_root = "${bare}"\n` }, /the (cpu and memory controllers are|cpu controller is|memory controller is) not available in the cgroup v2 tree at /);
    assert.ok(!existsSync(join(bare!, 'svc')), 'nothing was created there');
  });

  test('a tree whose cgroup.controllers lacks cpu', async () => {
    const tree = fakeCgroupTree('cpuset io memory pids');
    await expectNotEnforced({ licensed: true, extra: `[isolation]\ncgroup_root = "${tree}"\n` }, /the cpu controller is not available in the cgroup v2 tree at .* \(cgroup.controllers lists: cpuset io memory pids\)/);
    assert.ok(!existsSync(join(tree, 'svc')), 'nothing was created');
    removeRoot(join(tree, '..'));
  });

  test('no license: limits stored, "isolation plugin not loaded"', async () => {
    await expectNotEnforced({ licensed: false }, /isolation plugin not loaded \(it needs a license granting isolation/);
  });

  test('a license without the isolation grant: isolation.so present but not loaded', async () => {
    const root = tempRoot('svc-detect-');
    const signer = testSigner();
    const config = licensedRoot(root, signer, { secret: SECRET, plugins: ['security', 'isolation'] });
    const d = await startDaemon(root, { config });
    try {
      const created = await d.request('POST', '/api/v1/programs', { name: 'web', command: process.execPath, args: [fixture('forever.js')], resource_limits: { memory_limit: 64_000_000 } }, auth);
      const detail = await eventually(async () => (await d.request('GET', `/api/v1/programs/${created.body.id}`, undefined, auth)).body.state.isolation, 10_000, 'verdict');
      assert.equal(detail.status, 'limits not enforced: isolation plugin not loaded: the license does not grant isolation');
    } finally {
      await d.stop();
      removeRoot(root);
    }
  });
});
