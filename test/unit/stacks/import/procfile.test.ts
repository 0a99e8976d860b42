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
