// Node's child_process stays the fallback: a daemon whose spawner binary is missing warns once and
// still supervises; SVC_SPAWNER=off chooses it silently. LinuxOs itself leaks no descriptor when
// a spawn throws synchronously (issue 25 #10), and captures like the spawner does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { eventually, fixture, removeRoot, startDaemon, tempRoot } from '../../helpers/daemon.js';
import { LinuxOs } from '../../../controllers/os/linux.js';
import { captureEndsAtAbort } from '../../helpers/spawner.js';

const ownFds = () => readdirSync('/proc/self/fd').length;

for (const [what, env, warning] of [
  ['a missing spawner binary: one warning', { SVC_SPAWNER_BINARY: '/nonexistent/svc-spawner' }, /svc-spawner not found at \/nonexistent\/svc-spawner .*child_process/],
  ['SVC_SPAWNER=off: no warning', { SVC_SPAWNER: 'off' }, null],
] as const) {
  test(`child_process fallback, ${what}; programs run and stop`, async () => {
    const root = tempRoot();
    const d = await startDaemon(root, { env: { ...env } });
    try {
      const spawnerLines = d.stderr.filter((l) => l.includes('svc-spawner'));
      if (warning) {
        assert.equal(spawnerLines.length, 1);
        assert.match(spawnerLines[0], warning);
        assert.match(spawnerLines[0], /"level":"warn"/);
      } else assert.deepEqual(spawnerLines, []);
      const id = (await d.request('POST', '/api/v1/programs', { name: 'p', command: process.execPath, args: [fixture('exit-with.js'), '4'], retry_limit: 0 })).body.id as string;
      const fatal = await eventually(async () => {
        const body = (await d.request('GET', `/api/v1/programs/${id}`)).body;
        return body.status === 'Fatal' ? body : null;
      });
      assert.equal(fatal.state.last_exit.exit_code, 4);
    } finally {
      await d.stop();
      removeRoot(root);
    }
  });
}

/** A LinuxOs and a temporary folder for `fn`; both closed and removed afterwards. */
async function withLinuxOs(fn: (os: LinuxOs, root: string) => Promise<void>): Promise<void> {
  const os = new LinuxOs();
  const root = tempRoot();
  try {
    await fn(os, root);
  } finally {
    await os.close();
    removeRoot(root);
  }
}

test('LinuxOs: a spawn that throws synchronously (a NUL byte) leaks no descriptor', async () => {
  await withLinuxOs(async (os, root) => {
    const spec = { file: 'sh', args: ['a\0b'], cwd: root, env: {}, stdoutPath: `${root}/o`, stderrPath: `${root}/e` };
    await assert.rejects(os.spawn(spec, () => undefined), /args\[0\]: must not contain a NUL byte/);
    const before = ownFds();
    for (let i = 0; i < 20; i++) await assert.rejects(os.spawn(spec, () => undefined));
    assert.equal(ownFds(), before);
    const captured = await os.capture({ file: 'sh', args: ['-c', 'echo out; echo err >&2; exit 2'], cwd: root, env: { PATH: '/usr/bin:/bin' } }, 5000);
    assert.deepEqual([captured.code, captured.output.split('\n').sort().join(' ').trim()], [2, 'err out']);
    assert.equal((await os.capture({ file: 'sh', args: ['\0'], cwd: root, env: {} }, 1000)).error, 'args[0]: must not contain a NUL byte');
  });
});

test('LinuxOs: stdinPath is the child\'s fd 0; a missing file fails the spawn; no descriptor leaks', async () => {
  await withLinuxOs(async (os, root) => {
    writeFileSync(`${root}/in.json`, '{"event":"process_fatal"}\n');
    const spec = { file: 'sh', args: ['-c', 'cat'], cwd: root, env: { PATH: '/usr/bin:/bin' }, stdoutPath: `${root}/o`, stderrPath: `${root}/e`, stdinPath: `${root}/in.json` };
    const before = ownFds();
    assert.equal((await os.runToCompletion(spec, 5000)).code, 0);
    assert.equal(readFileSync(`${root}/o`, 'utf8'), '{"event":"process_fatal"}\n');
    assert.match((await os.runToCompletion({ ...spec, stdinPath: `${root}/missing` }, 5000)).error ?? '', /^cannot open stdin file: /);
    await assert.rejects(os.spawn({ ...spec, args: ['a\0b'] }, () => undefined), /args\[0\]: must not contain a NUL byte/);
    assert.equal(ownFds(), before);
  });
});

test('LinuxOs capture, as the spawner: a background child left holding the output neither turns an exit 0 into a timeout nor outlives the command', async () => {
  const os = new LinuxOs();
  const root = tempRoot();
  let bg = 0;
  try {
    const r = await os.capture({ file: 'sh', args: ['-c', 'sleep 60 & echo $! > bg.pid; echo ok; exit 0'], cwd: root, env: { PATH: '/usr/bin:/bin' } }, 5000);
    bg = Number(readFileSync(`${root}/bg.pid`, 'utf8'));
    assert.deepEqual({ code: r.code, timedOut: r.timedOut, output: r.output }, { code: 0, timedOut: false, output: 'ok\n' });
    await eventually(() => !existsSync(`/proc/${bg}`), 5000, 'the background child ended with the command');
  } finally {
    try {
      if (bg > 0) process.kill(bg, 'SIGKILL');
    } catch {
      // ended
    }
    await os.close();
    removeRoot(root);
  }
});

test('LinuxOs capture, as the spawner: an abort ends the command and its process group at once', async () => {
  await withLinuxOs(captureEndsAtAbort);
});

test('LinuxOs: uid, gid and the supplementary groups are switched (as root), for programs and captures', { skip: process.getuid?.() !== 0 ? 'needs root' : false }, async () => {
  await withLinuxOs(async (os, root) => {
    const env = { PATH: '/usr/bin:/bin' };
    const who = { file: 'sh', args: ['-c', 'echo $(id -u):$(id -g):$(id -G)'], cwd: '/', env, uid: 65534, gid: 65534 };
    assert.equal((await os.capture({ ...who, groups: [65534, 4242, 4243] }, 5000)).output.trim(), '65534:65534:65534 4242 4243');
    assert.equal((await os.capture(who, 5000)).output.trim(), '65534:65534:65534', 'none without groups');
    const exit = await os.runToCompletion({ ...who, groups: [65534, 4242], stdoutPath: `${root}/o`, stderrPath: `${root}/e` }, 5000);
    assert.equal(exit.code, 0);
    assert.equal(readFileSync(`${root}/o`, 'utf8').trim(), '65534:65534:65534 4242');
  });
});

test('LinuxOs: a step of svc-exec that fails before the program runs is a spawn failure naming it, not an exit 127', async () => {
  await withLinuxOs(async (os, root) => {
    const spec = { file: 'true', args: [], cwd: root, env: { PATH: '/usr/bin:/bin' }, stdoutPath: `${root}/o`, stderrPath: `${root}/e` };
    const exits: unknown[] = [];
    await assert.rejects(os.spawn({ ...spec, cgroup: `${root}/no-such-cgroup` }, (e) => exits.push(e)), (err: Error) => {
      assert.equal(err.message, `cannot join cgroup ${root}/no-such-cgroup: ENOENT`);
      return true;
    });
    assert.equal((await os.capture({ ...spec, cgroup: `${root}/no-such-cgroup` }, 5000)).error, `cannot join cgroup ${root}/no-such-cgroup: ENOENT`);
    if (process.getuid?.() === 0) {
      // Root may run it; the user the program runs as may not.
      const script = `${root}/root-only.sh`;
      writeFileSync(script, '#!/bin/sh\necho ran\n', { mode: 0o700 });
      const asNobody = { ...spec, file: script, uid: 65534, gid: 65534 };
      await assert.rejects(os.spawn(asNobody, (e) => exits.push(e)), /^Error: permission denied: .*root-only\.sh$/);
      assert.equal((await os.capture(asNobody, 5000)).error, `permission denied: ${script}`);
    }
    assert.deepEqual(exits, [], 'a start that failed reports no exit');
    assert.match(readFileSync(`${root}/e`, 'utf8'), /svc-exec: cannot join cgroup .*no-such-cgroup: No such file or directory/);
  });
});

test('LinuxOs: a program run as another user joins its cgroup (as root, before the switch) and starts', { skip: process.getuid?.() !== 0 ? 'needs root' : false }, async () => {
  await withLinuxOs(async (os, root) => {
    // A cgroup directory as svcd makes it: root's, cgroup.procs writable by root only.
    const cgroup = `${root}/svc/program`;
    mkdirSync(cgroup, { recursive: true, mode: 0o755 });
    writeFileSync(`${cgroup}/cgroup.procs`, '', { mode: 0o644 });
    chmodSync(root, 0o755);
    const out = `${root}/o`;
    const exit = await os.runToCompletion({ file: 'sh', args: ['-c', 'id -u'], cwd: '/', env: { PATH: '/usr/bin:/bin' }, uid: 65534, gid: 65534, cgroup, stdoutPath: out, stderrPath: out }, 5000);
    assert.deepEqual([exit.code, exit.error], [0, undefined], readFileSync(out, 'utf8'));
    assert.equal(readFileSync(out, 'utf8'), '65534\n');
    assert.equal(readFileSync(`${cgroup}/cgroup.procs`, 'utf8'), '0', 'it wrote itself into cgroup.procs');
  });
});
