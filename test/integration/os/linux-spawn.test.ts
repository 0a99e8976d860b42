import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withSpawnDecorators } from '../../../controllers/os/decorated.js';
import { LinuxOs } from '../../../controllers/os/linux.js';
import type { ProcessHandle, SpawnSpec } from '../../../controllers/os/port.js';
import { removeRoot, tempRoot } from '../../helpers/daemon.js';

const openFds = () => readdirSync('/proc/self/fd').length;

function spec(root: string, over: Partial<SpawnSpec>): SpawnSpec {
  return { file: '/bin/true', args: [], cwd: root, env: { PATH: '/usr/bin:/bin' }, stdoutPath: join(root, 'p.out'), stderrPath: join(root, 'p.err'), ...over };
}

test('a spawn that throws synchronously (NUL byte, cwd a file) closes both log files every time', async () => {
  const root = tempRoot();
  try {
    const file = join(root, 'a-file');
    writeFileSync(file, '');
    const os = new LinuxOs();
    const bad: Partial<SpawnSpec>[] = [
      { cwd: `${root}\0x` },
      { args: ['a\0b'] },
      { env: { PATH: '/bin', X: 'a\0b' } },
      { file: '/bin/tr\0ue' },
      { cwd: file },
    ];
    const before = openFds();
    for (let round = 0; round < 20; round++) {
      for (const over of bad) {
        await assert.rejects(os.spawn(spec(root, over), () => undefined));
      }
    }
    assert.equal(openFds(), before, 'no file descriptor left open');
    const messages = await Promise.all(bad.map((over) => os.spawn(spec(root, over), () => undefined).then(() => '', (err: Error) => err.message)));
    assert.deepEqual(messages, [
      'cwd: must not contain a NUL byte',
      'args[0]: must not contain a NUL byte',
      'env.X: must not contain a NUL byte',
      'command: must not contain a NUL byte',
      `cwd ${file} is not a directory`,
    ]);
  } finally {
    removeRoot(root);
  }
});

test('a missing cwd is reported as such, not as "command not found"', async () => {
  const root = tempRoot();
  try {
    const os = new LinuxOs();
    await assert.rejects(os.spawn(spec(root, { cwd: join(root, 'nope') }), () => undefined), (err: Error) => {
      assert.equal(err.message, `cwd ${join(root, 'nope')} does not exist`);
      return true;
    });
    await assert.rejects(os.spawn(spec(root, { file: 'no-such-command-svc' }), () => undefined), /command not found: no-such-command-svc/);
    const file = join(root, 'f');
    writeFileSync(file, '');
    await assert.rejects(os.spawn(spec(root, { cwd: file }), () => undefined), (err: Error) => {
      assert.equal(err.message, `cwd ${file} is not a directory`);
      return true;
    });
  } finally {
    removeRoot(root);
  }
});

test('a process that ends at once is reported after spawn has returned its handle, also through decorators (svcd died: Cannot access handle before initialization)', async () => {
  const root = tempRoot();
  const alive = setInterval(() => undefined, 1000); // LinuxOs unrefs its children, as svcd's server keeps the loop alive
  try {
    // The controllers write `const handle = await os.spawn(spec, (exit) => use(handle.pid))`.
    // Each decorator, and SpawnerOs falling back to child_process, adds awaits between the
    // spawn's answer and the caller, so an exit already seen must not come in the same turn.
    const os = withSpawnDecorators(new LinuxOs(), [(s) => s, { decorate: (s) => s }]);
    const early: number[] = [];
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let i = 0; i < 25; i++) {
          let handle: ProcessHandle | null = null;
          let ended!: () => void;
          const exited = new Promise<void>((resolve) => (ended = resolve));
          handle = await os.spawn(spec(root, {}), () => {
            if (handle === null) early.push(i);
            ended();
          });
          await exited;
        }
      }),
    );
    assert.deepEqual(early, [], 'no exit reported before its spawn returned');
  } finally {
    clearInterval(alive);
    removeRoot(root);
  }
});
