import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SvcError } from '../../../../state/errors.js';
import { importFile } from '../../../../stacks/import/run.js';
import type { ImportFormat } from '../../../../stacks/import/types.js';
import { memoryPorts } from './ports.js';

/** The message of the SvcError an import throws. */
function failure(format: ImportFormat, path: string, files: Record<string, string>): string {
  try {
    importFile(format, path, path.split('/').pop() ?? path, memoryPorts(files));
  } catch (err) {
    assert.ok(err instanceof SvcError, String(err));
    return err.message;
  }
  return 'no error';
}

test('a file that does not parse gets its own format’s position', () => {
  assert.match(failure('pm2', '/a/ecosystem.json', { '/a/ecosystem.json': '{\n  "apps": [\n    { "name": "x", }\n  ]\n}\n' }), /^ecosystem\.json:3:20: property name expected/);
  assert.match(failure('pm2', '/a/ecosystem.yaml', { '/a/ecosystem.yaml': 'apps:\n  - name: x\n   script: y\n' }), /^ecosystem\.yaml:3:\d+: /);
  assert.match(failure('pm2', '/a/ecosystem.config.js', { '/a/ecosystem.config.js': 'module.exports = {\n  apps: [\n    { name: "a",, },\n  ],\n};\n' }), /^ecosystem\.config\.js:3:17: SyntaxError: /);
  assert.match(failure('supervisord', '/a/s.conf', { '/a/s.conf': '[program:x]\ncommand=run\nthis is not an option\n' }), /^s\.conf:3: parsing error: 'this is not an option'/);
  assert.match(failure('supervisord', '/a/s.conf', { '/a/s.conf': 'command=run\n' }), /^s\.conf:1: file contains no section headers/);
  assert.match(failure('process-compose', '/a/pc.yaml', { '/a/pc.yaml': 'processes:\n  web:\n    command: [unclosed\n' }), /^pc\.yaml:\d+:\d+: /);
  assert.match(failure('procfile', '/a/Procfile', { '/a/Procfile': 'web: run\nnot a process line\n' }), /^Procfile:2: expected 'name: command'/);
});

test('mistakes the source tool would refuse are refused with file:line and the field', () => {
  assert.match(
    failure('supervisord', '/a/s.conf', { '/a/s.conf': '[program:x]\ncommand=run %(ENV_NOPE)s\n' }),
    /^s\.conf:2: \[program:x\] command: %\(ENV_NOPE\)s cannot be expanded/,
  );
  assert.match(
    failure('supervisord', '/a/s.conf', { '/a/s.conf': '[program:x]\ncommand=run\nnumprocs=2\n' }),
    /^s\.conf:1: \[program:x\] process_name: %\(process_num\) must be present within process_name when numprocs > 1/,
  );
  assert.match(failure('supervisord', '/a/s.conf', { '/a/s.conf': '[program:x]\ncommand=run\nenvironment=A=b@c\n' }), /^s\.conf:3: \[program:x\] environment: unexpected end of key\/value pairs/);
  assert.match(failure('supervisord', '/a/s.conf', { '/a/s.conf': '[program:x]\ncommand=run\n[group:g]\nprograms=x,y\n' }), /^s\.conf:4: \[group:g\] programs: no section \[program:y\]/);
  assert.match(failure('pm2', '/a/e.json', { '/a/e.json': '{"apps":[{"name":"x"}]}' }), /^e\.json:1: apps\[0\] \(name=x\): script: is required/);
  assert.match(failure('process-compose', '/a/pc.yaml', { '/a/pc.yaml': 'processes:\n  web:\n    command: run\n    depends_on:\n      db:\n        condition: process_healthy\n' }), /^pc\.yaml:5: processes\.web\.depends_on\.db: no process 'db'/);
  assert.match(failure('process-compose', '/a/pc.yaml', { '/a/pc.yaml': 'processes:\n  web:\n    command: run\n    availability:\n      restart: sometimes\n' }), /^pc\.yaml:5: processes\.web\.availability\.restart: 'sometimes' is not/);
});

test('a value svc refuses is an error naming the program, not a broken stack', () => {
  const message = failure('pm2', '/a/e.json', { '/a/e.json': '{"apps":[{"name":"job","script":"x.sh","cron_restart":"not a cron","autorestart":false}]}' });
  assert.match(message, /^e\.json: as imported: services\[0\] \(name=job\): cron: invalid expression 'not a cron'/);
  assert.match(message, /fix them in e\.json and import again/);
});
