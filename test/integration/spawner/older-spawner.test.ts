// A newer svcd finding an older svc-spawner still running (it holds the programs across an
// upgrade): fields that spawner would refuse are left out of its SPAWNs, and svcd says so once each.
// The older spawner is played by a socket server speaking version 1 without FEATURES.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { removeRoot, tempRoot } from '../../helpers/daemon.js';
import { SpawnerOs } from '../../../controllers/os/spawner-os.js';
import { encodeFrame, Field, FrameDecoder, Msg, WIRE_VERSION, type Frame } from '../../../controllers/os/spawner/protocol.js';

const root = tempRoot('svc-old-spawner-');
after(() => removeRoot(root));

/** Fields the first spawners did not know: GROUPS and every later one. */
const newerField = (key: number) => key >= Field.GROUPS;

/** Answers HELLO as the first spawners did, and refuses a SPAWN with a field it does not know, as they do. */
function olderSpawner(socketPath: string, spawns: Frame[]) {
  return createServer((socket: Socket) => {
    const decoder = new FrameDecoder();
    socket.on('data', (chunk: Buffer) => {
      for (const f of decoder.push(chunk)) {
        if (f.type === Msg.HELLO) socket.write(encodeFrame(Msg.OK, f.seq, [[Field.VERSION, { u32: WIRE_VERSION }], [Field.PID, { i32: 4242 }], [Field.LIVE, { u64: 0 }], [Field.HELD, { u64: 0 }]]));
        else if (f.type === Msg.SPAWN && [...f.fields.keys()].some(newerField)) socket.write(encodeFrame(Msg.ERROR, f.seq, [[Field.ERRNO, { i32: 22 }], [Field.STAGE, { u32: 1 }], [Field.MESSAGE, 'unknown field']]));
        else if (f.type === Msg.SPAWN) {
          spawns.push(f);
          socket.write(encodeFrame(Msg.SPAWNED, f.seq, [[Field.PID, { i32: 5000 + spawns.length }], [Field.START_TIME, { u64: 1 }], [Field.STARTED_AT, { u64: Date.now() }]]));
        } else socket.write(encodeFrame(Msg.OK, f.seq, []));
      }
    });
    socket.on('error', () => undefined);
  }).listen(socketPath);
}

test('an older spawner without FEATURES: a program starts without supplementary groups and open-files limit, with one warning for each', async () => {
  const socketPath = join(root, 'run', 'spawner.sock');
  mkdirSync(join(root, 'run'), { recursive: true });
  const spawns: Frame[] = [];
  const server = olderSpawner(socketPath, spawns);
  await new Promise((resolve) => server.once('listening', resolve));
  const warnings: string[] = [];
  const os = await SpawnerOs.start({ binary: '/nonexistent', socketPath, logFile: join(root, 'spawner.log'), warn: (m) => warnings.push(m) });
  try {
    const spec = { file: '/bin/true', args: [], cwd: root, env: {}, stdoutPath: '/dev/null', stderrPath: '/dev/null', uid: 1000, gid: 1000, groups: [27, 44], openFilesLimit: 1024 };
    const first = await os.spawn(spec, () => undefined);
    const second = await os.spawn(spec, () => undefined);
    assert.deepEqual([first.pid, second.pid], [5001, 5002]);
    assert.equal(spawns[0].fields.has(Field.GROUPS), false);
    assert.equal(spawns[0].fields.has(Field.NOFILE), false);
    assert.equal(spawns[0].fields.get(Field.UID)?.[0].readUInt32LE(0), 1000, 'the rest of the request is as asked');
    assert.equal(warnings.length, 2, warnings.join('\n'));
    assert.match(warnings[0], /svc-spawner \(pid 4242\) predates supplementary groups/);
    assert.match(warnings[1], /svc-spawner \(pid 4242\) predates \[supervisor\] limit_nofile/);
  } finally {
    await os.close().catch(() => undefined);
    server.close();
  }
});
