import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importFile } from '../../../../stacks/import/run.js';
import type { ImportOptions } from '../../../../stacks/import/types.js';
import { memoryPorts } from './ports.js';

const pm2 = (apps: unknown[], opts: ImportOptions = {}) => importFile('pm2', '/app/e.json', 'e.json', memoryPorts({ '/app/e.json': JSON.stringify({ apps }, null, 2) }), opts);

test('PM2 defaults that differ from svc’s are written out: always restart, 16 retries, 1 s uptime, 1.6 s kill timeout, no delay', () => {
  const [s] = pm2([{ name: 'a', script: 'a.js' }]).services;
  assert.deepEqual(s, {
    name: 'a',
    command: 'node',
    args: ['a.js'],
    cwd: '/app',
    autorestart: 'true',
    retry_limit: 16,
    startsecs: 1,
    stopsecs: 2,
    backoff_secs: 0,
    env: { NODE_APP_INSTANCE: '0' },
    source: 'import:pm2',
  });
});

test('restart fields: stop_exit_codes, max_restarts, min_uptime, kill_timeout, restart_delay, exp_backoff_restart_delay', () => {
  const [fixed, exp, off] = pm2([
    { name: 'f', script: 'f.js', stop_exit_codes: [0, 3], max_restarts: 4, min_uptime: '30s', kill_timeout: 4500, restart_delay: 2500 },
    { name: 'e', script: 'e.js', exp_backoff_restart_delay: 250 },
    { name: 'o', script: 'o.js', autorestart: false },
  ]).services;
  assert.deepEqual([fixed.autorestart, fixed.exitcodes, fixed.retry_limit, fixed.startsecs, fixed.stopsecs, fixed.backoff_secs, fixed.backoff_max_secs], ['unexpected', [0, 3], 4, 30, 5, 2.5, 2.5]);
  assert.deepEqual([exp.backoff_secs, exp.backoff_max_secs], [0.25, 15]);
  assert.equal(off.autorestart, 'false');
});

test('interpreters: by extension, explicit, none; args and node_args as strings or lists', () => {
  const [py, bin, custom, local] = pm2([
    { name: 'py', script: 'app.py', args: '--port 80 --name "a b"' },
    { name: 'bin', script: '/usr/bin/redis-server', interpreter: 'none', args: ['--port', '6380'] },
    { name: 'custom', script: 'app.js', interpreter: '/opt/node/bin/node', node_args: ['--inspect'], interpreter_args: '--trace-warnings' },
    { name: 'local', script: 'server', cwd: '/app/bin' },
  ]).services;
  assert.deepEqual([py.command, py.args], ['python', ['app.py', '--port', '80', '--name', 'a b']]);
  assert.deepEqual([bin.command, bin.args], ['/usr/bin/redis-server', ['--port', '6380']]);
  assert.deepEqual([custom.command, custom.args], ['/opt/node/bin/node', ['--trace-warnings', '--inspect', 'app.js']]);
  assert.deepEqual([local.command, local.args, local.cwd], ['server', undefined, '/app/bin']);
  const withFile = importFile('pm2', '/app/e.json', 'e.json', memoryPorts({ '/app/e.json': JSON.stringify({ apps: [{ name: 'l', script: 'server' }] }), '/app/server': '#!/bin/sh' }));
  assert.equal(withFile.services[0].command, './server', 'a script in cwd is run from there, as PM2 resolves it');
});

test('instances: one program each, in a group; NODE_APP_INSTANCE (or instance_var) and increment_var per instance; per-instance logs', () => {
  const { services, report } = pm2([
    { name: 'api', script: 'api.js', instances: 3, instance_var: 'INSTANCE_ID', increment_var: 'PORT', env: { PORT: 8000 }, out_file: 'logs/api.log' },
  ]);
  assert.deepEqual(
    services.map((s) => [s.name, s.group_name, s.env?.INSTANCE_ID, s.env?.PORT, s.stdout_logfile]),
    [
      ['api-0', 'api', '0', '8000', '/app/logs/api-0.log'],
      ['api-1', 'api', '1', '8001', '/app/logs/api-1.log'],
      ['api-2', 'api', '2', '8002', '/app/logs/api-2.log'],
    ],
  );
  assert.deepEqual(report, []);
  const max = pm2([{ name: 'w', script: 'w.js', instances: 'max', exec_mode: 'cluster' }]);
  assert.equal(max.services.length, 1);
  assert.deepEqual(max.report.map((e) => [e.field, e.kind]), [['instances', 'approximated'], ['exec_mode', 'approximated']]);
});

test('env_<name> applies with --env; other env blocks are reported, and --env of a missing block is refused', () => {
  const apps = [{ name: 'a', script: 'a.js', env: { A: '1', B: 'dev' }, env_production: { B: 'prod' }, env_staging: { B: 'stage' } }];
  const prod = pm2(apps, { pm2Env: 'production' });
  assert.deepEqual(prod.services[0].env, { A: '1', B: 'prod', NODE_APP_INSTANCE: '0' });
  assert.deepEqual(prod.report.map((e) => e.field), ['env_staging']);
  assert.deepEqual(pm2(apps).report.map((e) => e.field), ['env_production', 'env_staging']);
  assert.throws(() => pm2(apps, { pm2Env: 'qa' }), /--env qa: no app has env_qa/);
});

test('cron_restart: a cron program when autorestart is false (PM2’s way to run jobs), else reported', () => {
  const { services, report } = pm2([
    { name: 'job', script: 'job.sh', cron_restart: '0 3 * * *', autorestart: false, kill_timeout: 30000 },
    { name: 'web', script: 'web.js', cron_restart: '0 4 * * *' },
  ]);
  assert.deepEqual(services[0], { name: 'job', command: 'bash', args: ['job.sh'], cwd: '/app', cron: '0 3 * * *', on_overlap: 'kill', stopsecs: 30, env: { NODE_APP_INSTANCE: '0' }, source: 'import:pm2' });
  assert.equal(services[1].cron, undefined);
  assert.deepEqual(report.map((e) => [e.program, e.field, e.kind]), [['job', 'cron_restart', 'approximated'], ['web', 'cron_restart', 'unmapped']]);
});

test('identity, namespace, memory limit and logs; /dev/null and unknown options are reported', () => {
  const { services, report } = pm2([
    { name: 'a b', script: 'a.js', user: 'app', gid: 'www', namespace: 'shop', max_memory_restart: '512M', error_file: '/dev/null', out_file: '/var/log/a.log', merge_logs: true, watch: true, frobnicate: 1 },
  ]);
  const [s] = services;
  assert.deepEqual([s.name, s.user, s.group, s.group_name, s.resource_limits, s.stdout_logfile, s.stderr_logfile], ['a-b', 'app', 'www', 'shop', { memory_limit: 512 * 1024 * 1024 }, '/var/log/a.log', undefined]);
  assert.deepEqual(
    report.map((e) => [e.field, e.kind]),
    [['name', 'approximated'], ['max_memory_restart', 'approximated'], ['error_file', 'unmapped'], ['watch', 'unmapped'], ['frobnicate', 'unmapped']],
    'in line order',
  );
});

test('out_file/error_file /dev/stdout or /dev/stderr (pm2-runtime in a container) are reported as not mapped and left to svc’s log files', () => {
  const { services, report } = pm2([{ name: 'api', script: 'a.js', instances: 2, out_file: '/dev/stdout', error_file: '/dev/stderr' }]);
  assert.deepEqual(services.map((s) => [s.name, s.stdout_logfile, s.stderr_logfile]), [['api-0', undefined, undefined], ['api-1', undefined, undefined]]);
  assert.deepEqual(report.filter((e) => e.kind === 'unmapped').map((e) => [e.program, e.field]), [['api', 'out_file'], ['api', 'error_file']]);
  assert.match(report.find((e) => e.field === 'out_file')?.message ?? '', /\/dev\/stdout is PM2’s own output/);
});
