// The TypeScript side of the spawner without a spawner: frames, exit routing, OS selection, and
// exec probes over OsPort.capture (FakeOs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeFrame, FrameDecoder, Field, Msg, ProtocolError, decodeFields, i32, text, u64 } from '../../../controllers/os/spawner/protocol.js';
import { describeSpawnFailure, exitOf, spawnFields } from '../../../controllers/os/spawner/frames.js';
import { SpawnerRequestError } from '../../../controllers/os/spawner/connection.js';
import { ExitRouter } from '../../../controllers/os/spawner/exit-router.js';
import { createOs } from '../../../controllers/os/select-os.js';
import { LinuxOs } from '../../../controllers/os/linux.js';
import { FakeOs } from '../../../controllers/os/fake.js';
import { execProbe } from '../../../controllers/health/probes.js';
import type { ExitInfo } from '../../../controllers/os/port.js';

const turn = () => new Promise((r) => setImmediate(r));

test('frames round-trip through the decoder, split at any byte', () => {
  const a = encodeFrame(Msg.SPAWN, 7, [[Field.FILE, 'sh'], [Field.ARG, '-c'], [Field.ARG, 'échappé'], [Field.UID, { u32: 65534 }], [Field.START_TIME, { u64: 2n ** 40n }]]);
  const b = encodeFrame(Msg.OK, 8, []);
  const bytes = Buffer.concat([a, b]);
  for (let cut = 0; cut <= bytes.length; cut++) {
    const d = new FrameDecoder();
    const frames = [...d.push(bytes.subarray(0, cut)), ...d.push(bytes.subarray(cut))];
    assert.deepEqual(frames.map((f) => [f.type, f.seq]), [[Msg.SPAWN, 7], [Msg.OK, 8]]);
    assert.deepEqual(frames[0].fields.get(Field.ARG)!.map(String), ['-c', 'échappé']);
    assert.equal(frames[0].fields.get(Field.UID)![0].readUInt32LE(0), 65534);
    assert.equal(u64(frames[0], Field.START_TIME), 2 ** 40);
  }
});

test('u64 fields read exactly across the 32-bit boundary and up to 2^53 - 1, and as the nearest double above', () => {
  for (const value of [0n, 1n, 0xffff_ffffn, 0x1_0000_0000n, 0x1_0000_0005n, 1_795_546_472_123n, 2n ** 53n - 1n, 2n ** 64n - 1n]) {
    const [frame] = new FrameDecoder().push(encodeFrame(Msg.OK, 1, [[Field.SERIAL, { u64: value }]]));
    assert.equal(u64(frame, Field.SERIAL), Number(value), String(value));
  }
});

test('a frame is laid out byte for byte as PROTOCOL.md says: length, type, seq, then key-length-value fields', () => {
  const bytes = encodeFrame(Msg.SIGNAL, 0x01020304, [[Field.PID, { i32: -2 }], [Field.MESSAGE, 'é'], [Field.OUTPUT, Buffer.from([0xff])], [Field.TAG, ''], [Field.SERIAL, { u64: 258 }]]);
  // prettier-ignore
  assert.deepEqual([...bytes], [
    50, 0, 0, 0, Msg.SIGNAL, 4, 3, 2, 1,
    Field.PID, 0, 4, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff,
    Field.MESSAGE, 0, 2, 0, 0, 0, 0xc3, 0xa9,
    Field.OUTPUT, 0, 1, 0, 0, 0, 0xff,
    Field.TAG, 0, 0, 0, 0, 0,
    Field.SERIAL, 0, 8, 0, 0, 0, 2, 1, 0, 0, 0, 0, 0, 0,
  ]);
});

test('a length no spawner sends and a field past the frame are protocol errors', () => {
  assert.throws(() => new FrameDecoder().push(Buffer.from([1, 0, 0, 0, 0])), ProtocolError);
  assert.throws(() => decodeFields(Buffer.from([1, 0, 200, 0, 0, 0, 1])), /runs past the frame/);
  const f = { type: Msg.EXIT, seq: 0, fields: decodeFields(encodeFrame(0, 0, [[Field.PID, 'ab']]).subarray(9)) };
  assert.throws(() => i32(f, Field.PID), /not 4 bytes/);
  assert.equal(text(f, Field.TAG), '');
});

test('spawn fields carry args, env, logs, identity, tag; capture drops the log paths', () => {
  const spec = { file: 'node', args: ['a', 'b'], cwd: '/srv', env: { A: '1', B: 'x=y' }, stdoutPath: '/l/o', stderrPath: '/l/e', uid: 0, gid: 5, tag: 'id-1' };
  const fields = new Map<number, unknown[]>();
  for (const [k, v] of spawnFields(spec)) fields.set(k, [...(fields.get(k) ?? []), v]);
  assert.deepEqual(fields.get(Field.ARG), ['a', 'b']);
  assert.deepEqual(fields.get(Field.ENV), ['A=1', 'B=x=y']);
  assert.deepEqual(fields.get(Field.UID), [{ u32: 0 }]);
  assert.deepEqual(fields.get(Field.TAG), ['id-1']);
  assert.deepEqual(fields.get(Field.FLAGS), [{ u32: 1 }]);
  const captured = new Map(spawnFields(spec, true));
  assert.equal(captured.get(Field.STDOUT), undefined);
  assert.deepEqual(captured.get(Field.FLAGS), { u32: 3 });
});

test('spawn failures are worded as LinuxOs words them, naming the step', () => {
  const spec = { file: 'app', cwd: '/srv' };
  const err = (code: string, stage: number, msg = 'x') => new SpawnerRequestError(1, code, stage, msg);
  assert.equal(describeSpawnFailure(spec, err('ENOENT', 12)), 'command not found: app (cwd /srv)');
  assert.equal(describeSpawnFailure(spec, err('EACCES', 12)), 'permission denied: app');
  assert.equal(describeSpawnFailure(spec, err('ENOENT', 8)), 'cwd /srv does not exist');
  assert.equal(describeSpawnFailure(spec, err('ENOTDIR', 8)), 'cwd /srv is not a directory');
  assert.equal(describeSpawnFailure(spec, err('EACCES', 2, '/l/o: Permission denied')), 'cannot open log file: /l/o: Permission denied');
  assert.equal(describeSpawnFailure(spec, err('EINVAL', 1, 'argument 1 contains a NUL byte')), 'app: invalid spawn request: argument 1 contains a NUL byte');
});

function exitFrame(serial: number, pid: number, startTime: number, code: number, signo = 0) {
  const bytes = encodeFrame(Msg.EXIT, 0, [
    [Field.SERIAL, { u64: serial }], [Field.PID, { i32: pid }], [Field.START_TIME, { u64: startTime }], [Field.STARTED_AT, { u64: 5 }],
    [Field.TAG, 't'], [Field.CODE, { i32: code }], [Field.SIGNO, { i32: signo }], [Field.UTIME_US, { u64: 2500 }], [Field.STIME_US, { u64: 0 }], [Field.MAXRSS_KB, { u64: 4 }],
  ]);
  return exitOf(new FrameDecoder().push(bytes)[0]);
}

test('exit frames: -1 means signalled, rusage in ms and bytes', () => {
  assert.deepEqual(exitFrame(1, 10, 100, -1, 9).exit, { code: null, signal: 9, usage: { userMs: 2.5, systemMs: 0, maxRssBytes: 4096 } });
  assert.equal(exitFrame(1, 10, 100, 0).exit.signal, null);
});

test('exit routing: waiting, early and kept exits; one cumulative ACK per burst', async () => {
  const acks: number[] = [];
  const router = new ExitRouter((serial) => acks.push(serial));
  const got: [string, ExitInfo][] = [];
  router.watch({ pid: 10, startTime: 100 }, (e) => got.push(['a', e]));
  router.arrived(exitFrame(1, 10, 100, 3));
  router.arrived(exitFrame(2, 11, 110, 4)); // nobody waits yet (ahead of its SPAWNED)
  router.arrived(exitFrame(3, 10, 999, 5)); // same pid, another process: not a's
  assert.deepEqual(got.map(([w, e]) => [w, e.code]), [['a', 3]]);
  assert.equal(router.heldStartTime(11), 110);
  router.watch({ pid: 11, startTime: 110 }, (e) => got.push(['b', e]));
  assert.equal(got.length, 1, 'an early exit is delivered on the next turn, after spawn() returned');
  await turn();
  await turn();
  assert.deepEqual(got.map(([w, e]) => [w, e.code]), [['a', 3], ['b', 4]]);
  assert.deepEqual(acks, [1, 2]);
  router.watch({ pid: 20, startTime: 1 }, () => undefined);
  router.watch({ pid: 21, startTime: 1 }, () => undefined);
  router.arrived(exitFrame(4, 20, 1, 0));
  router.arrived(exitFrame(5, 21, 1, 0));
  await turn();
  assert.deepEqual(acks, [1, 2, 5], 'a burst is acknowledged once, cumulatively');
  assert.equal(router.held({ pid: 10, startTime: 999 })?.exit.code, 5);
  router.watch({ pid: 12, startTime: 120 }, () => got.push(['c', { code: 0, signal: null }]));
  assert.deepEqual(router.takeWaiters().map(([h]) => h.pid), [12]);
});

test('OS selection: off, a missing binary, a socket path too long; each but off warns once', async () => {
  const warnings: string[] = [];
  const base = { spawner: true, root: '/tmp/x', logDir: '/tmp/x/logs', warn: (m: string) => warnings.push(m) };
  assert.ok((await createOs({ ...base, env: { SVC_SPAWNER: 'off' } })) instanceof LinuxOs);
  assert.ok((await createOs({ ...base, spawner: false, env: {} })) instanceof LinuxOs);
  assert.deepEqual(warnings, []);
  assert.ok((await createOs({ ...base, env: { SVC_SPAWNER_BINARY: '/nonexistent/svc-spawner' } })) instanceof LinuxOs);
  assert.match(warnings[0], /^svc-spawner not found at \/nonexistent\/svc-spawner .*Node's child_process$/);
  await createOs({ ...base, env: { SVC_SPAWNER_BINARY: '/bin/true' }, root: `/tmp/${'d'.repeat(120)}` });
  assert.match(warnings[1], /longer than 107 bytes/);
  await createOs({ ...base, env: { SVC_SPAWNER: 'maybe' }, spawner: false });
  assert.match(warnings[2], /SVC_SPAWNER=maybe: not one of on\/off/);
});

test('exec probes run through OsPort.capture: exit 0 passes, the last output line is quoted', async () => {
  const os = new FakeOs();
  const spec = { file: 'check', args: [], cwd: '/', env: {} };
  os.captureResults.set('check', { code: 0, output: 'warming\nready\n' });
  assert.deepEqual(await execProbe(os, spec, 1000), { ok: true, message: 'exec check: exit 0: ready' });
  os.captureResults.set('check', { code: 2, output: '' });
  assert.deepEqual(await execProbe(os, spec, 1000), { ok: false, message: 'exec check: exit 2' });
  os.captureResults.set('check', { code: null, signal: 9, timedOut: true });
  assert.deepEqual(await execProbe(os, spec, 1000), { ok: false, message: 'exec check: killed after 1000 ms' });
  os.captureResults.set('check', { code: null, signal: 15 });
  assert.deepEqual(await execProbe(os, spec, 1000), { ok: false, message: 'exec check: signal SIGTERM' });
  os.captureResults.set('check', { code: null, error: 'command not found: check (cwd /)' });
  assert.deepEqual(await execProbe(os, spec, 1000), { ok: false, message: 'exec check: command not found: check (cwd /)' });
  assert.equal(os.captureRuns.length, 5);
});

test('frames written in one tick leave together, at most 64 to a write: a long burst reaches the spawner while it runs', async () => {
  const { EventEmitter } = await import('node:events');
  const { SpawnerConnection } = await import('../../../controllers/os/spawner/connection.js');
  // A socket that records what leaves it: writes while corked are held until the matching uncork.
  const sent: number[] = [];
  let held = 0;
  let corks = 0;
  const socket = Object.assign(new EventEmitter(), {
    cork: () => void corks++,
    uncork: () => {
      corks--;
      if (corks > 0 || held === 0) return;
      sent.push(held);
      held = 0;
    },
    write: () => {
      if (corks > 0) held++;
      else sent.push(1);
      return true;
    },
  });
  const conn = new SpawnerConnection(socket as never, { frame: () => undefined, error: () => undefined, closed: () => undefined });
  for (let i = 0; i < 150; i++) conn.send(Msg.ACK, [[Field.SERIAL, { u64: i }]]);
  assert.deepEqual(sent, [64, 64], 'two full writes left during the burst');
  await new Promise((r) => process.nextTick(r));
  assert.deepEqual(sent, [64, 64, 22], 'the rest at the end of the tick');
  conn.send(Msg.ACK, [[Field.SERIAL, { u64: 1 }]]);
  await new Promise((r) => process.nextTick(r));
  assert.deepEqual(sent, [64, 64, 22, 1]);
});
