import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ProgramConfig } from '../../../state/program.js';

/** The configuration type is derived from the schema; these lines fail to compile if it drifts. */
test('ProgramConfig is the schema: required name and command, typed optional fields', () => {
  const full: ProgramConfig = {
    name: 'web',
    command: 'node',
    args: ['server.js'],
    user: 1000,
    env: { A: '1' },
    autorestart: 'unexpected',
    exitcodes: [0, 3],
    health_check: { type: 'tcp', port: 80, restart_on_failure: true },
    hooks: { pre_start: 'prep' },
    artifact: { source: 'https://x/app', checksum: 'a'.repeat(64), destination: '/opt/app' },
    on_overlap: 'queue',
    resource_limits: { memory_limit: 1 << 20 },
  };
  // @ts-expect-error command is required by the schema
  const noCommand: ProgramConfig = { name: 'x' };
  // @ts-expect-error on_overlap is an enum
  const badEnum: ProgramConfig = { name: 'x', command: 'y', on_overlap: 'sometimes' };
  // @ts-expect-error a stored autorestart is a string (validation normalizes booleans)
  const boolRestart: ProgramConfig = { name: 'x', command: 'y', autorestart: true };
  assert.ok(full && noCommand && badEnum && boolRestart);
});
