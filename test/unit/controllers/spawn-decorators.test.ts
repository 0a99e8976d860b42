import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withSpawnDecorators } from '../../../controllers/os/decorated.js';
import { FakeOs } from '../../../controllers/os/fake.js';
import type { SpawnSpec } from '../../../controllers/os/port.js';

const spec: SpawnSpec = { file: 'app', args: [], cwd: '/', env: { SVC_PROGRAM_ID: 'p' }, stdoutPath: '/l.out', stderrPath: '/l.err' };

test('spawn decorators change the spec before the process starts, in order, for spawns and hooks', async () => {
  const fake = new FakeOs();
  const os = withSpawnDecorators(fake, [(s) => ({ ...s, env: { ...s.env, A: '1' } }), async (s) => ({ ...s, file: 'wrap', args: [s.file, ...s.args] })]);
  const handle = await os.spawn(spec, () => undefined);
  const started = fake.processes.get(handle.pid)!.spec;
  assert.equal(started.file, 'wrap');
  assert.deepEqual(started.args, ['app']);
  assert.equal(started.env.A, '1');
  await os.runToCompletion(spec, 1000);
  assert.equal(fake.hookRuns[0].file, 'wrap');
  assert.equal(os.uid(), fake.uid(), 'everything else is the port itself');
});

test('a decorator that throws refuses the spawn with its message', async () => {
  const os = withSpawnDecorators(new FakeOs(), [() => { throw new Error('cgroup svc/p: permission denied'); }]);
  await assert.rejects(os.spawn(spec, () => undefined), /cgroup svc\/p: permission denied/);
});
