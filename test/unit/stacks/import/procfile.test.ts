import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importFile } from '../../../../stacks/import/run.js';
import { memoryPorts } from './ports.js';

test('Procfile: one program per line, PORT as foreman sets it, the .env as env_file, /bin/sh only when needed', () => {
  const { services, report } = importFile('procfile', '/app/Procfile', 'Procfile', memoryPorts({ '/app/Procfile': '# comment\nweb: node server.js\n\nworker: bin/work && echo done\n' }));
  assert.deepEqual(services, [
    { name: 'web', command: 'node server.js', cwd: '/app', env: { PORT: '5000' }, source: 'import:procfile' },
    { name: 'worker', command: '/bin/sh', args: ['-c', 'bin/work && echo done'], cwd: '/app', env: { PORT: '5100' }, source: 'import:procfile' },
  ]);
  assert.deepEqual(report, []);
  const withEnv = importFile('procfile', '/app/Procfile', 'Procfile', memoryPorts({ '/app/Procfile': 'web: run\n', '/app/.env': 'A=1\nPORT=8000\n' }));
  assert.deepEqual(withEnv.services[0], { name: 'web', command: 'run', cwd: '/app', env: { PORT: '8000' }, env_file: '/app/.env', source: 'import:procfile' });
  assert.deepEqual(withEnv.report.map((e) => [e.file, e.line, e.field]), [['.env', 2, 'PORT']]);
  assert.throws(() => importFile('procfile', '/app/Procfile', 'Procfile', memoryPorts({ '/app/Procfile': 'web: run\n' }), { envFile: '/app/missing.env' }), /missing\.env: cannot read: ENOENT/);
});

test('Procfile: a process type that is not a valid svc name (or repeats one) is renamed and the rename reported', () => {
  const { services, report } = importFile('procfile', '/app/Procfile', 'Procfile', memoryPorts({ '/app/Procfile': 'web: run\n_jobs: work\nweb: again\n' }));
  assert.deepEqual(services.map((s) => s.name), ['web', 'jobs', 'web-2']);
  assert.deepEqual(report.map((e) => [e.line, e.program, e.field, e.message]), [
    [2, 'jobs', 'name', "'_jobs' is not a valid svc name (or is taken); renamed to 'jobs'"],
    [3, 'web-2', 'name', "'web' is not a valid svc name (or is taken); renamed to 'web-2'"],
  ]);
});

test('Procfile: the .env of a report line is named as the user can open it (beside the Procfile as named, or --env-file as typed)', () => {
  const files = { '/work/app/Procfile': 'web: run\n', '/work/app/.env': 'PORT=8000\n', '/work/shared.env': 'A=1\nPORT=9000\n' };
  const beside = importFile('procfile', '/work/app/Procfile', 'app/Procfile', memoryPorts(files));
  assert.deepEqual(beside.report.map((e) => [e.file, e.line, e.field]), [['app/.env', 1, 'PORT']]);
  const typed = importFile('procfile', '/work/app/Procfile', 'app/Procfile', memoryPorts(files), { envFile: '/work/shared.env' });
  assert.deepEqual(typed.report.map((e) => [e.file, e.line, e.field]), [['/work/shared.env', 2, 'PORT']]);
});
