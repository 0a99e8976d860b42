// svc-spawner's protocol against the real binary (the ASan build when present): every bad request
// is answered with an error naming the problem, the connection survives what it can, and no
// descriptor leaks (/proc/<spawner>/fd).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants } from 'node:os';
import { eventually, pidAlive, removeRoot } from '../../helpers/daemon.js';
import { fdCount, killPid, RawClient, sanitizerReports, spawnerPaths, startRawSpawner, waitGone } from '../../helpers/spawner.js';
import { Feature, Field, i32, Msg, text, type FieldList, type Frame } from '../../../controllers/os/spawner/protocol.js';

const paths = spawnerPaths();
let spawner = 0;
let client: RawClient;

before(async () => {
  spawner = await startRawSpawner(paths);
  client = await RawClient.connect(paths.socketPath);
  const ok = await client.hello();
  assert.equal(ok.type, Msg.OK);
  assert.equal(i32(ok, Field.FEATURES) & Feature.GROUPS, Feature.GROUPS, 'it says it takes GROUPS');
});

after(async () => {
  killPid(spawner); // its children here (/bin/true) have all exited by themselves
  await waitGone(spawner);
  const reports = sanitizerReports(paths.logFile);
  removeRoot(paths.root);
  assert.equal(reports, '', 'sanitizer reports in the spawner log');
});

const base = (extra: FieldList = []): FieldList => [[Field.FILE, '/bin/true'], [Field.CWD, paths.root], ...extra];

async function refused(fields: FieldList, pattern: RegExp, errno?: string): Promise<Frame> {
  const reply = await client.request(Msg.SPAWN, fields);
  assert.equal(reply.type, Msg.ERROR, `refused: ${text(reply, Field.MESSAGE)}`);
  assert.match(text(reply, Field.MESSAGE), pattern);
  if (errno) assert.equal(i32(reply, Field.ERRNO), constants.errno[errno as keyof typeof constants.errno]);
  return reply;
}

test('bad spawn requests get an error that names the problem, and leak no descriptor', async () => {
  const logDir = join(paths.root, 'logs');
  mkdirSync(logDir, { recursive: true });
  const aFile = join(paths.root, 'a-file');
  writeFileSync(aFile, 'x');
  // Warm-up: the first spawn's descriptors (none kept) and the first log directory.
  const ok = await client.request(Msg.SPAWN, base([[Field.STDOUT, join(logDir, 'ok.out')]]));
  assert.equal(ok.type, Msg.SPAWNED);
  const before = fdCount(spawner);
  for (let round = 0; round < 20; round++) {
    await refused(base([[Field.ARG, 'a\0b']]), /argument 1 contains a NUL byte/, 'EINVAL');
    await refused([[Field.FILE, '/bin/tr\0ue'], [Field.CWD, paths.root]], /file contains a NUL byte/);
    await refused(base([[Field.ENV, 'A=1\0']]), /environment entry 1 contains a NUL byte/);
    await refused(base([[Field.ENV, 'NOEQUALS']]), /environment entry 1 is not NAME=value/);
    await refused([[Field.FILE, '/bin/true'], [Field.CWD, `${paths.root}\0x`]], /cwd contains a NUL byte/);
    const cwdFile = await refused([[Field.FILE, '/bin/true'], [Field.CWD, aFile], [Field.STDOUT, join(logDir, 'x.out')], [Field.STDERR, join(logDir, 'x.err')]], /chdir .*a-file: Not a directory/, 'ENOTDIR');
    assert.equal(i32(cwdFile, Field.STAGE), 8);
    await refused(base([[Field.STDOUT, join(aFile, 'under-a-file.out')]]), /under-a-file.out: Not a directory/, 'ENOTDIR');
    await refused([[Field.FILE, 'no-such-command-svc'], [Field.CWD, paths.root], [Field.ENV, 'PATH=/usr/bin:/bin']], /exec no-such-command-svc: No such file/, 'ENOENT');
    await refused([[Field.FILE, aFile], [Field.CWD, paths.root]], /Permission denied/, 'EACCES');
    await refused([[Field.CWD, paths.root]], /needs file and cwd/);
    await refused(base([[99, 'x']]), /unknown field 99/);
    await refused(base([[Field.FLAGS, { u32: 1 << 20 }]]), /flags/);
    await refused(base([[Field.UID, 'ab']]), /uid must be 4 bytes/);
    await refused(base([[Field.GROUPS, { u32: 1 }], [Field.GROUPS, 'ab']]), /field groups: each must be 4 bytes, at most 65536/);
    const cgroup = await refused(base([[Field.CGROUP, join(paths.root, 'no-such-cgroup')]]), /cgroup .*no-such-cgroup: No such file or directory/, 'ENOENT');
    assert.equal(i32(cgroup, Field.STAGE), 13);
    await refused(base([[Field.TAG, 'a'], [Field.TAG, 'b']]), /tag given twice/);
  }
  const tooMany: [number, { u32: number }][] = Array.from({ length: 65537 }, (_, g) => [Field.GROUPS, { u32: g }]);
  await refused(base(tooMany), /field groups: each must be 4 bytes, at most 65536/);
  assert.equal(fdCount(spawner), before, 'descriptor count unchanged after every refused request');
  assert.ok(pidAlive(spawner));
});

test('malformed frames: a field past the frame end and unknown types are answered; the connection goes on', async () => {
  // SPAWN whose only field claims 1000 bytes but carries 3.
  const frame = Buffer.alloc(9 + 6 + 3);
  frame.writeUInt32LE(frame.length - 4, 0);
  frame.writeUInt8(Msg.SPAWN, 4);
  frame.writeUInt32LE(7001, 5);
  frame.writeUInt16LE(Field.FILE, 9);
  frame.writeUInt32LE(1000, 11);
  client.sendRaw(frame);
  const overrun = await client.answer(7001);
  assert.equal(overrun.type, Msg.ERROR);
  assert.match(text(overrun, Field.MESSAGE), /runs past the frame/);
  const unknown = await client.request(77, []);
  assert.match(text(unknown, Field.MESSAGE), /unknown request type 77/);
  const signal = await client.request(Msg.SIGNAL, [[Field.PID, { i32: 1 }], [Field.SIGNO, { i32: 15 }], [Field.GROUP, { u32: 0 }]]);
  assert.equal(signal.type, Msg.ERROR);
  assert.match(text(signal, Field.MESSAGE), /pid 1 is not a running child of the spawner/, 'never signals a process it did not start');
  const ack = await client.request(Msg.ACK, [[Field.SERIAL, { u32: 1 }]]);
  assert.match(text(ack, Field.MESSAGE), /8-byte serial/);
  assert.equal((await client.request(Msg.SPAWN, base())).type, Msg.SPAWNED, 'still serving');
});

test('requests before HELLO and a wrong protocol version are refused', async () => {
  const other = await RawClient.connect(paths.socketPath);
  try {
    const early = await other.request(Msg.SPAWN, base());
    assert.match(text(early, Field.MESSAGE), /send HELLO first/);
    const version = await other.request(Msg.HELLO, [[Field.VERSION, { u32: 99 }]]);
    assert.match(text(version, Field.MESSAGE), /protocol version 99 is not supported/);
  } finally {
    other.destroy();
  }
  assert.equal((await client.request(Msg.SPAWN, base())).type, Msg.SPAWNED, 'the daemon connection was not taken over');
});

test('an impossible frame length is answered, the connection closed, and the spawner serves the next one', async () => {
  const before = fdCount(spawner);
  const bad = await RawClient.connect(paths.socketPath);
  const header = Buffer.alloc(9);
  header.writeUInt32LE(0xfffffff0, 0);
  bad.sendRaw(header);
  await eventually(() => bad.closed, 5000, 'connection closed by the spawner');
  assert.match(text(bad.of(Msg.ERROR)[0], Field.MESSAGE), /bad frame length/);
  const tiny = await RawClient.connect(paths.socketPath);
  tiny.sendRaw(Buffer.from([2, 0, 0, 0, 1, 0]));
  await eventually(() => tiny.closed, 5000, 'connection closed by the spawner');
  await eventually(() => fdCount(spawner) === before, 5000, 'descriptors back to the count before');
  assert.equal((await client.request(Msg.SPAWN, base())).type, Msg.SPAWNED);
});
