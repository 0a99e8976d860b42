// SPAWN with NOFILE against the real spawner (each method): the child starts with that soft
// open-files limit, capped at the hard limit, which stays; the spawner's own limit is untouched.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openFilesLimits, withRawSpawner } from '../../helpers/spawner.js';
import { Feature, Field, i32, Msg, text, type FieldList, type Frame } from '../../../controllers/os/spawner/protocol.js';

for (const method of ['fork', 'clone', 'posix_spawn'] as const) {
  test(`the child starts with the NOFILE given, capped at the hard limit (${method})`, async () => {
    await withRawSpawner(['--method', method], async ({ paths, spawner, client, hello }) => {
      assert.equal(i32(hello, Field.FEATURES) & Feature.NOFILE, Feature.NOFILE, 'it says it takes NOFILE');
      const [, hard] = openFilesLimits(spawner);
      const limitsOf = async (nofile: number): Promise<string> => {
        const out = join(paths.root, `limits-${nofile}`);
        const spawn: FieldList = [[Field.FILE, '/bin/sh'], [Field.ARG, '-c'], [Field.ARG, 'ulimit -Sn; ulimit -Hn'], [Field.CWD, paths.root], [Field.STDOUT, out], [Field.NOFILE, { u64: nofile }]];
        const reply: Frame = await client.request(Msg.SPAWN, spawn);
        assert.equal(reply.type, Msg.SPAWNED, text(reply, Field.MESSAGE));
        const pid = i32(reply, Field.PID);
        const exit = await client.waitFrame((f) => f.type === Msg.EXIT && i32(f, Field.PID) === pid, 'exit');
        assert.equal(i32(exit, Field.CODE), 0);
        return readFileSync(out, 'utf8');
      };
      assert.equal(await limitsOf(1000), `1000\n${hard}\n`);
      assert.equal(await limitsOf(Number(hard) + 1), `${hard}\n${hard}\n`, 'above the hard limit: the hard limit');
      assert.deepEqual(openFilesLimits(spawner), [hard, hard], "the spawner's own limit is as it was");
      const zero = await client.request(Msg.SPAWN, [[Field.FILE, '/bin/true'], [Field.CWD, paths.root], [Field.NOFILE, { u64: 0 }]]);
      assert.equal(zero.type, Msg.ERROR);
      assert.match(text(zero, Field.MESSAGE), /field nofile must be 8 bytes and above 0/);
    });
  });
}
