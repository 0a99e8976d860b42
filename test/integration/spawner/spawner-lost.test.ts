// The spawner itself killed under a connected SpawnerOs: its children are watched through /proc
// (exit status unknown, as with child_process), a new spawner is started for new programs, and
// after maxRestarts losses child_process takes over for good.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, removeRoot } from '../../helpers/daemon.js';
import { killPid, spawnerBinary, spawnerPaths } from '../../helpers/spawner.js';
import { SpawnerOs } from '../../../controllers/os/spawner-os.js';
import type { ExitInfo } from '../../../controllers/os/port.js';

test('a lost spawner: children watched through /proc, a new spawner for new programs, then child_process', async () => {
  const p = spawnerPaths();
  const warnings: string[] = [];
  const os = await SpawnerOs.start({ binary: spawnerBinary(), socketPath: p.socketPath, logFile: p.logFile, warn: (m) => warnings.push(m), maxRestarts: 1 });
  const pids: number[] = [];
  const spec = { file: 'sleep', args: ['100'], cwd: p.root, env: { PATH: '/usr/bin:/bin' }, stdoutPath: `${p.root}/o`, stderrPath: `${p.root}/o` };
  const run = async () => {
    let done!: (e: ExitInfo) => void;
    const exit = new Promise<ExitInfo>((r) => (done = r));
    const h = await os.spawn(spec, done);
    pids.push(h.pid);
    return { pid: h.pid, exit };
  };
  const spawners = [os.spawnerPid];
  const keepAlive = setInterval(() => undefined, 1000); // LinuxOs's /proc poll timer is unref'd
  try {
    const orphan = await run();
    // Waits for the loss to be noticed (other warnings, such as a signal to a dying spawner, do not count).
    const lostAfter = async (from: number, what: string) => eventually(() => warnings.slice(from).some((w) => /svc-spawner lost/.test(w)), 10_000, what);
    killPid(os.spawnerPid);
    // (A spawn sent before the loss is noticed fails like any failed spawn: the policy decides.)
    await lostAfter(0, 'the loss noticed');
    const next = await run(); // waits for the new spawner
    spawners.push(os.spawnerPid);
    assert.notEqual(os.spawnerPid, spawners[0]);
    assert.match(warnings.find((w) => /svc-spawner lost/.test(w)) ?? '', /svc-spawner lost .*; starting a new one/);
    os.signal(orphan.pid, 'SIGTERM', true); // not the new spawner's child: signalled directly
    assert.deepEqual(await orphan.exit, { code: null, signal: null }, 'exit status unknown, as after a lost parent');
    os.signal(next.pid, 'SIGTERM', true);
    assert.equal((await next.exit).signal, 15);

    const before = warnings.length;
    killPid(os.spawnerPid);
    await lostAfter(before, 'the second loss noticed');
    const fallback = await run(); // no restart left: child_process
    assert.match(warnings.at(-1) ?? '', /started with Node's child_process from now on/);
    os.signal(fallback.pid, 'SIGTERM', true);
    assert.equal((await fallback.exit).signal, 15);
  } finally {
    clearInterval(keepAlive);
    for (const pid of pids) killPid(pid, true);
    for (const pid of spawners) killPid(pid);
    await os.close();
    removeRoot(p.root);
  }
});
