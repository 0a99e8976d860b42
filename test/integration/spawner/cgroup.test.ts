// SPAWN with CGROUP against the real spawner (each method): the child writes "0" to the
// cgroup's cgroup.procs itself, after setsid and before exec; a cgroup it cannot join fails the
// spawn (at once when cgroup.procs cannot be opened, from the child when the write fails), and
// posix_spawn, which has no hook for it, refuses with ENOTSUP.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { withRawSpawner } from '../../helpers/spawner.js';
import { Field, i32, Msg, text } from '../../../controllers/os/spawner/protocol.js';

for (const method of ['fork', 'clone', 'posix_spawn'] as const) {
  test(`spawn into a cgroup (${method})`, async () => {
    await withRawSpawner(['--method', method], async ({ paths, client, hello }) => {
      assert.equal(hello.type, Msg.OK);
      const cg = join(paths.root, 'cg');
      mkdirSync(cg);
      const reply = await client.request(Msg.SPAWN, [[Field.FILE, '/bin/true'], [Field.CWD, paths.root], [Field.CGROUP, cg]]);
      if (method === 'posix_spawn') {
        assert.equal(reply.type, Msg.ERROR);
        assert.equal(i32(reply, Field.STAGE), 13);
        assert.match(text(reply, Field.MESSAGE), /cgroup .*cg: Operation not supported/);
        return;
      }
      assert.equal(reply.type, Msg.SPAWNED, text(reply, Field.MESSAGE));
      const pid = i32(reply, Field.PID);
      const exit = await client.waitFrame((f) => f.type === Msg.EXIT && i32(f, Field.PID) === pid, 'exit');
      assert.equal(i32(exit, Field.CODE), 0);
      assert.equal(readFileSync(join(cg, 'cgroup.procs'), 'utf8'), '0', 'the child wrote 0 (itself)');
      // A cgroup.procs that takes no write: the child stops before exec and says why.
      const full = join(paths.root, 'full');
      mkdirSync(full);
      symlinkSync('/dev/full', join(full, 'cgroup.procs'));
      const failing = await client.request(Msg.SPAWN, [[Field.FILE, '/bin/true'], [Field.CWD, paths.root], [Field.CGROUP, full]]);
      if (failing.type === Msg.ERROR) {
        assert.equal(i32(failing, Field.STAGE), 13, 'clone: synchronous');
        assert.match(text(failing, Field.MESSAGE), /No space left on device/);
      } else {
        const failed = await client.waitFrame((f) => f.type === Msg.EXIT && i32(f, Field.PID) === i32(failing, Field.PID), 'failed exit');
        assert.equal(i32(failed, Field.STAGE), 13, 'fork: reported with the exit');
        assert.match(text(failed, Field.MESSAGE), /^cgroup: No space left on device/);
      }
    });
  });
}
