import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeOs } from '../../../../controllers/os/fake.js';
import { spawnFields } from '../../../../controllers/os/spawner/frames.js';
import { Field } from '../../../../controllers/os/spawner/protocol.js';
import { baseEnvOf, buildSpawnSpec } from '../../../../controllers/process/spawn-spec.js';
import { withDefaults } from '../../../../state/program.js';

void test("a program inherits svcd's environment without its unset names; its own env wins; the shared base is never changed", () => {
  const base = baseEnvOf({ PATH: '/usr/bin', LANG: 'C.UTF-8', UNSET: undefined });
  assert.deepEqual(base, { PATH: '/usr/bin', LANG: 'C.UTF-8' });
  const ctx = { root: '/srv', logDir: '/srv/logs', baseEnv: base };
  const os = new FakeOs();
  const a = buildSpawnSpec('id-a', withDefaults({ name: 'a', command: 'app', env: { LANG: 'de_DE.UTF-8', X: '1' } }), ctx, os);
  const b = buildSpawnSpec('id-b', withDefaults({ name: 'b', command: 'app' }), ctx, os);
  assert.deepEqual(a.env, { PATH: '/usr/bin', LANG: 'de_DE.UTF-8', X: '1', SVC_PROGRAM_ID: 'id-a', SVC_ROOT: '/srv', SVC_PROGRAM_NAME: 'a' });
  assert.deepEqual(b.env, { PATH: '/usr/bin', LANG: 'C.UTF-8', SVC_PROGRAM_ID: 'id-b', SVC_ROOT: '/srv', SVC_PROGRAM_NAME: 'b' });
  assert.deepEqual(base, { PATH: '/usr/bin', LANG: 'C.UTF-8' }, 'no spawn wrote into the base');
  // The SPAWN frame carries each variable once, as NAME=value, in the environment's order.
  const env = spawnFields(a).filter(([key]) => key === Field.ENV).map(([, value]) => value);
  assert.deepEqual(env, ['PATH=/usr/bin', 'LANG=de_DE.UTF-8', 'X=1', 'SVC_PROGRAM_ID=id-a', 'SVC_ROOT=/srv', 'SVC_PROGRAM_NAME=a']);
});
