// The isolation plugin against a real svcd, with [isolation] cgroup_root pointed at a fake
// cgroup v2 tree in a temporary directory: the files written are checked, a live limit change,
// an OOM kill (simulated through memory.events + SIGKILL) and the cleanup at stop.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually, fixture, removeRoot, startDaemon, tempRoot, type RunningDaemon } from '../../helpers/daemon.js';
import { runCli } from '../../helpers/cli.js';
import { licensedRoot, testSigner } from '../../helpers/license.js';
import { fakeCgroupTree, readTreeFile } from '../../helpers/cgroup-tree.js';

const SECRET = 'isolation-secret';
const auth = { authorization: `Bearer ${SECRET}` };

for (const spawner of ['on', 'off'] as const) {
  describe(`resource_limits on a fake cgroup v2 tree (spawner ${spawner})`, () => {
    let d: RunningDaemon;
    let tree: string;
    let id = '';
    const get = async (path: string) => (await d.request('GET', path, undefined, auth)).body;
    const cli = (args: string[]) => runCli(args, { SVC_URL: d.url, SVC_TOKEN: SECRET, XDG_CONFIG_HOME: join(d.root, 'home') });
    const events = async (type: string) => (await get(`/api/v1/events?program_id=${id}&event_type=${type}&order=desc`)) as { msg: string; signal: number | null }[];

    before(async () => {
      tree = fakeCgroupTree();
      const root = tempRoot('svc-isolation-');
      const signer = testSigner();
      const config = licensedRoot(root, signer, { secret: SECRET, key: signer.issue({ grants: ['security', 'isolation'] }), plugins: ['security', 'isolation'], extra: `[isolation]\ncgroup_root = "${tree}"\n` });
      d = await startDaemon(root, { config, env: { SVC_SPAWNER: spawner } });
    });
    after(async () => {
      await d.stop();
      removeRoot(d.root);
      removeRoot(join(tree, '..'));
    });

    test('the svc parent gets the cpu and memory controllers; a program starts inside svc/<id> with cpu.max and memory.max', async () => {
      assert.equal(readTreeFile(tree, 'cgroup.subtree_control'), '+cpu +memory');
      assert.equal(readTreeFile(tree, 'svc', 'cgroup.subtree_control'), '+cpu +memory');
      const created = await d.request('POST', '/api/v1/programs', { name: 'web', command: process.execPath, args: [fixture('forever.js')], resource_limits: { memory_limit: 64_000_000, cpu_quota: 50 } }, auth);
      assert.equal(created.status, 201, JSON.stringify(created.body));
      id = created.body.id;
      await eventually(async () => (await get(`/api/v1/programs/${id}`)).state.isolation?.enforced, 10_000, 'enforced');
      assert.equal(readTreeFile(tree, 'svc', id, 'cpu.max'), '50000 100000');
      assert.equal(readTreeFile(tree, 'svc', id, 'memory.max'), '64000000');
      // The process joins the cgroup itself, before exec of the program: with Node's spawn (spawner
      // off) svc-exec writes it just after the spawn returned, so a busy machine may lag.
      await eventually(() => readTreeFile(tree, 'svc', id, 'cgroup.procs') === '0', 10_000, 'the process joined the cgroup itself, before exec');
      const detail = await get(`/api/v1/programs/${id}`);
      assert.equal(detail.state.isolation.status, `enforced (cgroup ${join(tree, 'svc', id)})`);
      const metrics = await (await fetch(`${d.url}/metrics`, { headers: auth })).text();
      assert.match(metrics, /^svc_cgroup_enforced_total 1$/m);
      const info = await cli(['info', 'web']);
      assert.match(info.stdout, /limits: +enforced \(cgroup /);
    });

    test('svc update --set resource_limits.memory_limit writes memory.max live, without a restart', async () => {
      const pid = (await get(`/api/v1/programs/${id}`)).pid;
      const upd = await cli(['update', 'web', '--set', 'resource_limits.memory_limit=32000000']);
      assert.equal(upd.code, 0, upd.stderr);
      await eventually(() => readTreeFile(tree, 'svc', id, 'memory.max') === '32000000', 10_000, 'memory.max rewritten');
      assert.equal(readTreeFile(tree, 'svc', id, 'cpu.max'), '50000 100000', 'cpu_quota kept');
      assert.equal((await get(`/api/v1/programs/${id}`)).pid, pid, 'same process');
    });

    test('memory.events: pressure and an OOM kill are recorded; the exit says it was an OOM kill', async () => {
      const pid = (await get(`/api/v1/programs/${id}`)).pid as number;
      writeFileSync(join(tree, 'svc', id, 'memory.events'), 'low 0\nhigh 0\nmax 4\noom 1\noom_kill 1\noom_group_kill 0\n');
      process.kill(pid, 'SIGKILL');
      const exit = await eventually(async () => (await events('process_exit'))[0], 10_000, 'process_exit');
      assert.match(exit.msg, /killed by signal 9 \(SIGKILL\) \(OOM-killed: the cgroup reached its memory_limit of 32000000 bytes\)/);
      const oom = await eventually(async () => (await events('memory_oom_kill'))[0], 10_000, 'memory_oom_kill');
      assert.equal(oom.signal, 9);
      assert.match(oom.msg, /cgroup OOM kill: 1 process\(es\) killed with signal 9 at memory_limit 32000000 bytes/);
      assert.match((await eventually(async () => (await events('memory_pressure'))[0], 10_000, 'memory_pressure')).msg, /4 time\(s\) at memory.max/);
      const cliEvents = await cli(['events', 'web']);
      assert.match(cliEvents.stdout, /memory_oom_kill.*cgroup OOM kill/);
    });

    test('limits added to a running program: its cgroup is made and the process moved in, no restart', async () => {
      const created = await d.request('POST', '/api/v1/programs', { name: 'late', command: process.execPath, args: [fixture('forever.js')] }, auth);
      const late = created.body.id as string;
      const pid = await eventually(async () => (await get(`/api/v1/programs/${late}`)).pid as number | null, 10_000, 'late running');
      assert.equal((await get(`/api/v1/programs/${late}`)).state.isolation, undefined, 'no limits: no verdict');
      const upd = await cli(['update', 'late', '--set', 'resource_limits.memory_limit=64000000']);
      assert.equal(upd.code, 0, upd.stderr);
      await eventually(async () => (await get(`/api/v1/programs/${late}`)).state.isolation?.enforced, 10_000, 'enforced');
      assert.equal(readTreeFile(tree, 'svc', late, 'memory.max'), '64000000');
      assert.equal(readTreeFile(tree, 'svc', late, 'cgroup.procs'), String(pid), 'the running process was moved in');
      assert.equal((await get(`/api/v1/programs/${late}`)).pid, pid);
      await d.request('DELETE', `/api/v1/programs/${late}`, undefined, auth);
      await eventually(() => !existsSync(join(tree, 'svc', late)), 10_000, 'removed with the program');
    });

    test('the cgroup is removed when the process stops', async () => {
      await eventually(async () => (await get(`/api/v1/programs/${id}`)).state.isolation?.enforced, 15_000, 'restarted and enforced again');
      assert.ok(existsSync(join(tree, 'svc', id)));
      const stop = await cli(['stop', 'web']);
      assert.equal(stop.code, 0, stop.stderr);
      await eventually(() => !existsSync(join(tree, 'svc', id)), 10_000, 'cgroup removed');
      const detail = await get(`/api/v1/programs/${id}`);
      assert.equal(detail.state.isolation.enforced, false);
      assert.equal(detail.state.isolation.status, 'not applied while the program is not running');
      const metrics = await (await fetch(`${d.url}/metrics`, { headers: auth })).text();
      assert.match(metrics, /^svc_cgroup_enforced_total 0$/m);
    });
  });
}
