// svcd-crash simulation against the real spawner: a daemon connection that ends without BYE
// leaves the spawner running with the programs; the next daemon learns the live children (with
// their tags) and every exit it missed, with the real exit code; exits are held until acknowledged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually, pidAlive, removeRoot } from '../../helpers/daemon.js';
import { killPid, RawClient, sanitizerReports, spawnerBinary, spawnerPaths, startRawSpawner, waitGone, type SpawnerPaths } from '../../helpers/spawner.js';
import { SpawnerOs } from '../../../controllers/os/spawner-os.js';
import type { ExitInfo } from '../../../controllers/os/port.js';
import { Field, i32, Msg, text, u64, type FieldList } from '../../../controllers/os/spawner/protocol.js';

const spawn = (p: SpawnerPaths, tag: string, script: string): FieldList => [
  [Field.FILE, '/bin/sh'],
  [Field.ARG, '-c'],
  [Field.ARG, script],
  [Field.CWD, p.root],
  [Field.TAG, tag],
  [Field.FLAGS, { u32: 1 }],
];

async function finish(p: SpawnerPaths, spawner: number, pids: number[]): Promise<void> {
  for (const pid of pids) killPid(pid, true);
  killPid(spawner);
  await waitGone(spawner);
  const reports = sanitizerReports(p.logFile);
  removeRoot(p.root);
  assert.equal(reports, '');
}

test('after a daemon crash the next one gets the live children and the missed exits with real codes', async () => {
  const p = spawnerPaths();
  const spawner = await startRawSpawner(p);
  const pids: number[] = [];
  try {
    const first = await RawClient.connect(p.socketPath);
    await first.hello();
    const flag = join(p.root, 'flag');
    const pidOf = async (tag: string, script: string) => {
      const reply = await first.request(Msg.SPAWN, spawn(p, tag, script));
      assert.equal(reply.type, Msg.SPAWNED, text(reply, Field.MESSAGE));
      pids.push(i32(reply, Field.PID));
      return { pid: i32(reply, Field.PID), startTime: u64(reply, Field.START_TIME) };
    };
    const keeps = await pidOf('prog-keeps', 'exec sleep 100');
    const killed = await pidOf('prog-killed', 'exec sleep 100');
    const exits7 = await pidOf('prog-exits-7', `while [ ! -e ${flag} ]; do sleep 0.02; done; exit 7`);
    const exits0 = await pidOf('prog-exits-0', `while [ ! -e ${flag} ]; do sleep 0.02; done; exit 0`);
    first.destroy(); // svcd killed: no BYE

    // While no daemon is connected, programs end; the spawner stays and reaps them.
    process.kill(killed.pid, 'SIGUSR1');
    writeFileSync(flag, '');
    for (const gone of [killed, exits7, exits0]) await waitGone(gone.pid);
    assert.ok(pidAlive(spawner) && pidAlive(keeps.pid));

    const warnings: string[] = [];
    const os = await SpawnerOs.start({ binary: spawnerBinary(), socketPath: p.socketPath, logFile: p.logFile, warn: (m) => warnings.push(m) });
    assert.equal(os.spawnerPid, spawner, 'the surviving spawner, not a new one');
    const recovered = await os.recover();
    assert.deepEqual(recovered.live.map((l) => [l.tag, l.pid, l.startTime]), [['prog-keeps', keeps.pid, keeps.startTime]]);
    const byTag = new Map(recovered.exited.map((e) => [e.tag, e]));
    assert.deepEqual([...byTag.keys()].sort(), ['prog-exits-0', 'prog-exits-7', 'prog-killed']);
    assert.deepEqual(byTag.get('prog-killed')!.exit.signal, 10);
    assert.deepEqual(byTag.get('prog-exits-7')!.exit.code, 7);
    assert.deepEqual(byTag.get('prog-exits-0')!.exit.code, 0);

    // The controller's adopt path: the exited process still "exists" until its exit is reported.
    assert.equal(os.startTimeOf(exits7.pid), exits7.startTime);
    const exit7 = await new Promise<ExitInfo>((r) => os.watchAdopted(exits7, r));
    assert.equal(exit7.code, 7);
    const liveExit = new Promise<ExitInfo>((r) => os.watchAdopted(keeps, r));
    os.signal(keeps.pid, 'SIGTERM', true);
    assert.equal((await liveExit).signal, 15, 'a re-adopted live child reports its real exit');
    await os.close();
    await waitGone(spawner, 'the spawner exits after BYE with no child left');
    assert.deepEqual(warnings, []);
  } finally {
    await finish(p, spawner, pids);
  }
});

test('a spawn is recorded before it is answered: a daemon gone right after sending it still finds the child', async () => {
  const p = spawnerPaths();
  const spawner = await startRawSpawner(p);
  const pids: number[] = [];
  try {
    const first = await RawClient.connect(p.socketPath);
    await first.hello();
    for (let i = 0; i < 20; i++) first.send(Msg.SPAWN, spawn(p, `prog-${i}`, 'exec sleep 100'));
    first.destroy(); // before any answer is read
    const second = await RawClient.connect(p.socketPath);
    const ok = await second.hello();
    const live = second.of(Msg.LIVE);
    pids.push(...live.map((f) => i32(f, Field.PID)));
    assert.equal(Number(u64(ok, Field.LIVE)), live.length);
    assert.deepEqual(live.map((f) => text(f, Field.TAG)).sort(), Array.from({ length: 20 }, (_, i) => `prog-${i}`).sort());
    second.destroy();
  } finally {
    await finish(p, spawner, pids);
  }
});

test('missed exits are held until acknowledged, across further crashes', async () => {
  const p = spawnerPaths();
  const spawner = await startRawSpawner(p);
  const pids: number[] = [];
  try {
    const keep = await RawClient.connect(p.socketPath);
    await keep.hello();
    const sleeper = await keep.request(Msg.SPAWN, spawn(p, 'sleeper', 'exec sleep 100')); // keeps the spawner up
    pids.push(i32(sleeper, Field.PID));
    const quick = await keep.request(Msg.SPAWN, spawn(p, 'quick', 'exit 3'));
    await keep.waitFrame((f) => f.type === Msg.EXIT, 'the exit');
    keep.destroy(); // received, never acknowledged

    const again = await RawClient.connect(p.socketPath);
    await again.hello();
    const replayed = again.of(Msg.EXIT);
    assert.deepEqual(replayed.map((f) => [i32(f, Field.PID), i32(f, Field.CODE)]), [[i32(quick, Field.PID), 3]]);
    again.destroy();

    const third = await RawClient.connect(p.socketPath);
    await third.hello();
    const serial = u64(third.of(Msg.EXIT)[0], Field.SERIAL);
    assert.equal((await third.request(Msg.ACK, [[Field.SERIAL, { u64: serial }]])).type, Msg.OK);
    third.destroy();

    const fourth = await RawClient.connect(p.socketPath);
    const ok = await fourth.hello();
    assert.equal(fourth.of(Msg.EXIT).length, 0, 'acknowledged exits are dropped');
    assert.equal(Number(u64(ok, Field.HELD)), 0);
    fourth.destroy();
  } finally {
    await finish(p, spawner, pids);
  }
});

test('lifetime: without BYE and with nothing kept it exits; after BYE it waits for its last child', async () => {
  const p = spawnerPaths();
  const spawner = await startRawSpawner(p);
  const pids: number[] = [];
  try {
    const c = await RawClient.connect(p.socketPath);
    await c.hello();
    c.destroy();
    await waitGone(spawner, 'a crashed daemon with no programs leaves nothing to keep');

    const second = await startRawSpawner(p);
    const d = await RawClient.connect(p.socketPath);
    await d.hello();
    const child = await d.request(Msg.SPAWN, spawn(p, 'slow', `while [ ! -e ${join(p.root, 'stop')} ]; do sleep 0.02; done`));
    pids.push(i32(child, Field.PID), second);
    assert.equal((await d.request(Msg.BYE, [])).type, Msg.OK);
    d.destroy();
    // A round trip on another connection (no HELLO, so BYE stands): the loop has checked since.
    const probe = await RawClient.connect(p.socketPath);
    assert.match(text(await probe.request(Msg.SIGNAL, []), Field.MESSAGE), /send HELLO first/);
    probe.destroy();
    assert.ok(pidAlive(second), 'stays while a child runs');
    writeFileSync(join(p.root, 'stop'), '');
    await waitGone(second, 'exits with its last child after BYE');
    await eventually(() => !pidAlive(i32(child, Field.PID)));
  } finally {
    await finish(p, spawner, pids);
  }
});
