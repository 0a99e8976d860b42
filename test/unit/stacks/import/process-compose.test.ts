import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importFile } from '../../../../stacks/import/run.js';
import { memoryPorts } from './ports.js';

const pc = (yaml: string, env: Record<string, string> = {}) => importFile('process-compose', '/dev/pc.yaml', 'pc.yaml', memoryPorts({ '/dev/pc.yaml': yaml }, env));

test('availability: no (the default) → autorestart false; on_failure → unexpected; always → true, with a fixed backoff', () => {
  const { services } = pc(`processes:
  a: { command: "run a" }
  b: { command: "run b", availability: { restart: on_failure, backoff_seconds: 3 } }
  c: { command: "run c", availability: { restart: always } }
`);
  assert.deepEqual(
    services.map((s) => [s.name, s.autorestart, s.backoff_secs, s.backoff_max_secs]),
    [
      ['a', 'false', undefined, undefined],
      ['b', 'unexpected', 3, 3],
      ['c', 'true', 1, 1],
    ],
  );
});

test('depends_on conditions: started and healthy gate the start; completed is reported and not a dependency', () => {
  const { services, report } = pc(`processes:
  db:
    command: db
    readiness_probe: { http_get: { port: 5432, path: /ready } }
  cache: { command: cache }
  init: { command: init }
  app:
    command: app
    depends_on:
      db: { condition: process_healthy }
      cache: { condition: process_started }
      init: { condition: process_completed_successfully }
`);
  assert.deepEqual(services.find((s) => s.name === 'app')?.depends_on, ['db', 'cache']);
  assert.deepEqual(report.map((e) => [e.field, e.kind]), [['depends_on.init', 'unmapped']]);
  assert.deepEqual(services[0].health_check, { type: 'http', url: 'http://127.0.0.1:5432/ready', timeout_secs: 1 });
});

test('probes: readiness is the health check, liveness adds restart_on_failure; different endpoints keep readiness', () => {
  const { services, report } = pc(`processes:
  live:
    command: a
    liveness_probe: { exec: { command: "curl -sf localhost:1/x || exit 1" }, period_seconds: 7, failure_threshold: 2 }
  both:
    command: b
    readiness_probe: { http_get: { port: 80, path: /ready } }
    liveness_probe: { http_get: { port: 80, path: /live } }
`);
  assert.deepEqual(services[0].health_check, { type: 'exec', command: 'bash', args: ['-c', 'curl -sf localhost:1/x || exit 1'], interval_secs: 7, timeout_secs: 1, failure_threshold: 2, restart_on_failure: true });
  assert.equal(services[1].health_check?.url, 'http://127.0.0.1:80/ready');
  assert.deepEqual(report.map((e) => [e.program, e.field]), [['both', 'liveness_probe']]);
});

test('commands run through the configured shell only when they need one; replicas; $VAR in stored values', () => {
  const { services, report } = pc(
    `shell: { shell_command: sh, shell_argument: -c }
processes:
  plain: { command: "node server.js --port 80" }
  piped: { command: "node a.js | tee $LOG" }
  many: { command: run, replicas: 2, working_dir: "$BASE/many", environment: ["X=\${X_VALUE}-1"] }
`,
    { BASE: '/opt', X_VALUE: 'x' },
  );
  assert.deepEqual([services[0].command, services[0].args], ['node server.js --port 80', undefined]);
  assert.deepEqual([services[1].command, services[1].args], ['sh', ['-c', 'node a.js | tee $LOG']]);
  assert.deepEqual(services.slice(2).map((s) => [s.name, s.cwd, s.env?.X, s.env?.PC_REPLICA_NUM, s.group_name]), [
    ['many-0', '/opt/many', 'x-1', '0', 'many'],
    ['many-1', '/opt/many', 'x-1', '1', 'many'],
  ]);
  assert.deepEqual(report.map((e) => [e.field, e.kind]), [['working_dir', 'approximated'], ['environment', 'approximated']]);
});

test('is_disabled ("true"/"false", a string) leaves a process stopped and wins over disabled, as in process-compose', () => {
  const { services, report } = pc(`processes:
  off: { command: a, is_disabled: "true" }
  on: { command: b, disabled: true, is_disabled: "false" }
  plain: { command: c, disabled: true }
`);
  assert.deepEqual(
    services.map((s) => [s.name, s.autostart]),
    [
      ['off', false],
      ['on', undefined],
      ['plain', false],
    ],
  );
  assert.deepEqual(report, []);
  assert.throws(() => pc('processes:\n  x: { command: a, is_disabled: "maybe" }\n'), /pc\.yaml:2: processes\.x\.is_disabled: must be "true" or "false", not "maybe"/);
});

test('an override file process-compose would merge over the imported file (started without -f) is reported, not silently left out', () => {
  const files = { '/srv/app/process-compose.yaml': 'processes:\n  web: { command: run }\n', '/srv/app/process-compose.override.yml': 'processes:\n  web: { command: other }\n' };
  const { report } = importFile('process-compose', '/srv/app/process-compose.yaml', 'app/process-compose.yaml', memoryPorts(files));
  assert.deepEqual(
    report.map((e) => [e.file, e.line, e.field, e.kind]),
    [['app/process-compose.override.yml', 1, 'process-compose.override.yml', 'unmapped']],
  );
  assert.match(report[0]?.message ?? '', /merges this file over process-compose\.yaml when it is started without -f/);
  // A file process-compose only reads with -f gets no override merged.
  const named = importFile('process-compose', '/srv/app/dev.yaml', 'dev.yaml', memoryPorts({ ...files, '/srv/app/dev.yaml': files['/srv/app/process-compose.yaml'] }));
  assert.deepEqual(named.report, []);
});

test('YAML merge keys (<<: *common), as process-compose reads them, carry the shared options', () => {
  const { services, report } = pc(`x-common: &common
  availability: { restart: always }
  working_dir: /srv/app
processes:
  a:
    <<: *common
    command: run-a
`);
  assert.deepEqual(
    services.map((s) => [s.name, s.autorestart, s.cwd]),
    [['a', 'true', '/srv/app']],
  );
  assert.deepEqual(
    report.map((e) => e.field),
    ['x-common'],
  );
});

test('the .env next to the file is every process’s env_file (process-compose gives its variables to each process, where commands expand them) unless is_dotenv_disabled', () => {
  const files = {
    '/srv/app/process-compose.yaml': 'processes:\n  api: { command: "serve --port $PORT" }\n  tool: { command: tool, is_dotenv_disabled: true }\n',
    '/srv/app/.env': 'PORT=8123\n',
  };
  const { services, report } = importFile('process-compose', '/srv/app/process-compose.yaml', 'process-compose.yaml', memoryPorts(files));
  assert.deepEqual(
    services.map((s) => [s.name, s.command, s.args, s.env_file]),
    [
      ['api', 'bash', ['-c', 'serve --port $PORT'], '/srv/app/.env'],
      ['tool', 'tool', undefined, undefined],
    ],
  );
  assert.deepEqual(report, []);
  // Without a .env there is nothing to read.
  assert.equal(pc('processes:\n  api: { command: serve }\n').services[0]?.env_file, undefined);
});

test('a .env variable that the environment of svc import also sets is reported: process-compose let the environment win, env_file wins in svc', () => {
  const files = { '/srv/app/process-compose.yaml': 'processes:\n  api: { command: serve }\n', '/srv/app/.env': '# defaults\nPORT=1\nexport HOME=/home/dev\n' };
  const { report } = importFile('process-compose', '/srv/app/process-compose.yaml', 'process-compose.yaml', memoryPorts(files, { HOME: '/root' }));
  assert.deepEqual(report.map((e) => [e.file, e.line, e.field, e.kind]), [['.env', 3, 'HOME', 'approximated']]);
});

test('numbers written as strings (replicas: "3", period_seconds: "5") are refused at their line, as process-compose refuses them, not dropped', () => {
  assert.throws(() => pc('processes:\n  web:\n    command: a\n    replicas: "3"\n'), /pc\.yaml:4: processes\.web\.replicas: must be a whole number of 0 or more, not "3"/);
  assert.throws(() => pc('processes:\n  web:\n    command: a\n    replicas: 1.5\n'), /processes\.web\.replicas: must be a whole number/);
  const probe = (line: string) => pc(`processes:\n  web:\n    command: a\n    readiness_probe:\n      http_get: { port: 80 }\n      ${line}\n`);
  assert.throws(() => probe('period_seconds: "5"'), /pc\.yaml:6: processes\.web\.readiness_probe\.period_seconds: must be a number of 0 or more, not "5"/);
  assert.throws(() => probe('failure_threshold: -1'), /readiness_probe\.failure_threshold: must be a number of 0 or more, not -1/);
  assert.equal(probe('period_seconds: 5').services[0]?.health_check?.interval_secs, 5);
  assert.equal(pc('processes:\n  web:\n    command: a\n    replicas: 2\n').services.length, 2);
});

test('PC_PROC_NAME and PC_REPLICA_NUM, which process-compose gives every process, are set in env where a command uses them; $$ is its escape for $', () => {
  const { services, report } = pc(`processes:
  legacy api: { command: "serve --name $$PC_PROC_NAME --port $((8000 + PC_REPLICA_NUM))" }
  worker:
    command: "work --id \${PC_PROC_NAME}-$$PC_REPLICA_NUM"
    replicas: 2
    log_location: /var/log/w.{PC_REPLICA_NUM}.log
  named: { command: "run $$PC_PROC_NAME", environment: ["PC_PROC_NAME=custom"] }
  plain: { command: "run --x", log_location: /var/log/plain.log, replicas: 2 }
  early: { command: "run $PC_REPLICA_NUM" }
`);
  assert.deepEqual(
    services.map((s) => [s.name, s.args?.[1], s.env, s.stdout_logfile]),
    [
      ['legacy-api', 'serve --name $PC_PROC_NAME --port $((8000 + PC_REPLICA_NUM))', { PC_PROC_NAME: 'legacy api', PC_REPLICA_NUM: '0' }, undefined],
      ['worker-0', 'work --id ${PC_PROC_NAME}-$PC_REPLICA_NUM', { PC_REPLICA_NUM: '0', PC_PROC_NAME: 'worker' }, '/var/log/w.0.log'],
      ['worker-1', 'work --id ${PC_PROC_NAME}-$PC_REPLICA_NUM', { PC_REPLICA_NUM: '1', PC_PROC_NAME: 'worker' }, '/var/log/w.1.log'],
      ['named', 'run $PC_PROC_NAME', { PC_PROC_NAME: 'custom' }, undefined],
      ['plain-0', undefined, { PC_REPLICA_NUM: '0' }, '/var/log/plain.log.0'],
      ['plain-1', undefined, { PC_REPLICA_NUM: '1' }, '/var/log/plain.log.1'],
      ['early', 'run $PC_REPLICA_NUM', { PC_REPLICA_NUM: '0' }, undefined],
    ],
  );
  assert.deepEqual(report.map((e) => [e.line, e.program, e.field, e.kind]), [
    [2, 'legacy-api', 'name', 'approximated'],
    [4, 'worker', 'command', 'approximated'],
    [9, 'early', 'command', 'approximated'],
  ]);
  assert.match(report[1]?.message ?? '', /process-compose expands \$PC_PROC_NAME when it loads the file/);
  // disable_env_expansion: no load-time expansion, so $$ stays (the shell's PID) and nothing is reported.
  const off = pc('disable_env_expansion: true\nprocesses:\n  a: { command: "run $PC_PROC_NAME $$" }\n');
  assert.deepEqual([off.services[0]?.args?.[1], off.services[0]?.env, off.report], ['run $PC_PROC_NAME $$', { PC_PROC_NAME: 'a' }, []]);
});
