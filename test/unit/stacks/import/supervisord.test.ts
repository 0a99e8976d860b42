import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importFile } from '../../../../stacks/import/run.js';
import { parseEnvironment } from '../../../../stacks/import/supervisord/environment.js';
import { expand } from '../../../../stacks/import/supervisord/expand.js';
import { parseIni } from '../../../../stacks/import/supervisord/ini.js';
import { memoryPorts } from './ports.js';

const supervisord = (files: Record<string, string>) => importFile('supervisord', '/etc/supervisor/supervisord.conf', 'supervisord.conf', memoryPorts(files));

test('INI as supervisord reads it: comments, continuation lines, key: value, lower-cased keys, repeated keys', () => {
  const [s] = parseIni('; comment\n[program:x]\nCommand = run --a ; inline comment\n  --b#not-a-comment\n# full line\ndirectory: /srv\ndirectory = /opt\n', 'f.conf');
  assert.equal(s.name, 'program:x');
  assert.deepEqual([...s.options.values()].map((o) => [o.key, o.value, o.line]), [
    ['command', 'run --a\n--b#not-a-comment', 3],
    ['directory', '/opt', 7],
  ]);
});

test('environment= : quotes keep commas and spaces, and supervisord’s errors are kept', () => {
  assert.deepEqual(parseEnvironment('A="x,y z",B=plain/path:1,C=\'q\' , D="%"'), { A: 'x,y z', B: 'plain/path:1', C: 'q', D: '%' });
  assert.deepEqual(parseEnvironment('A=1,\n    B=2'), { A: '1', B: '2' });
  assert.throws(() => parseEnvironment('A=user@host'), /unexpected end of key\/value pairs/);
  assert.throws(() => parseEnvironment('A="open'), /no closing quotation/);
});

test('%(name)s expansions: widths, %%, and unknown names', () => {
  assert.deepEqual(expand('%(program_name)s_%(process_num)02d %%(x) %(n)3d|%(s)-4s|', { program_name: 'w', process_num: 3, n: 7, s: 'ab' }, 'x'), {
    value: 'w_03 %(x)   7|ab  |',
    used: ['program_name', 'process_num', 'n', 's'],
  });
  assert.throws(() => expand('%(nope)s', {}, 'command'), /command: %\(nope\)s cannot be expanded/);
});

test('supervisord defaults that differ from svc’s are written out: startsecs 1, startretries 3', () => {
  const { services } = supervisord({ '/etc/supervisor/supervisord.conf': '[program:a]\ncommand=/bin/a\n' });
  assert.deepEqual(services, [{ name: 'a', command: '/bin/a', startsecs: 1, retry_limit: 3, source: 'import:supervisord' }]);
});

test('[include] files globs (sorted, relative to the including file), [group:x] membership, numprocs_start', () => {
  const { services, report } = supervisord({
    '/etc/supervisor/supervisord.conf': '[include]\nfiles = conf.d/*.conf extra/one.ini\n[group:g]\nprograms=b,w\n',
    '/etc/supervisor/conf.d/b.conf': '[program:b]\ncommand=/bin/b\n',
    '/etc/supervisor/conf.d/a.conf': '[program:a]\ncommand=/bin/a %(here)s\n',
    '/etc/supervisor/conf.d/skip.txt': '[program:skip]\ncommand=/bin/skip\n',
    '/etc/supervisor/extra/one.ini': '[program:w]\ncommand=/bin/w %(group_name)s %(process_num)d\nprocess_name=w-%(process_num)d\nnumprocs=2\nnumprocs_start=5\n',
  });
  assert.deepEqual(
    services.map((s) => [s.name, s.command, s.group_name]),
    [
      ['a', '/bin/a /etc/supervisor/conf.d', undefined],
      ['b', '/bin/b', 'g'],
      ['w-5', '/bin/w g 5', 'g'],
      ['w-6', '/bin/w g 6', 'g'],
    ],
  );
  // Nothing but the unknown working directory, once per [program:x] (w's two processes: once).
  assert.deepEqual(report.map((e) => [e.file, e.line, e.program, e.field]), [
    ['conf.d/a.conf', 1, 'a', 'directory'],
    ['conf.d/b.conf', 1, 'b', 'directory'],
    ['extra/one.ini', 1, 'w', 'directory'],
  ]);
});

test('[include] files with %(here)s and %(ENV_X)s (the way supervisord’s own sample writes it) are expanded before the glob', () => {
  const { services } = importFile(
    'supervisord',
    '/etc/supervisor/supervisord.conf',
    'supervisord.conf',
    memoryPorts(
      {
        '/etc/supervisor/supervisord.conf': '[include]\nfiles = %(here)s/conf.d/*.conf %(ENV_EXTRA)s/*.ini\n',
        '/etc/supervisor/conf.d/web.conf': '[program:web]\ncommand=/bin/web\n',
        '/opt/extra/worker.ini': '[program:worker]\ncommand=/bin/worker\n',
      },
      { EXTRA: '/opt/extra' },
    ),
  );
  assert.deepEqual(services.map((s) => s.name), ['web', 'worker']);
  assert.throws(() => supervisord({ '/etc/supervisor/supervisord.conf': '[include]\nfiles = %(nope)s/*.conf\n' }), /^SvcError: supervisord\.conf:2: \[include\] files: %\(nope\)s cannot be expanded/);
});

test('restart, stop, identity and log options; stopsignal and log rotation are reported', () => {
  const { services, report } = supervisord({
    '/etc/supervisor/supervisord.conf':
      '[program:a]\ncommand=/bin/a\nautorestart=false\nexitcodes=0,2\nstopwaitsecs=20\nstopsignal=INT\nuser=1000\npriority=5\nautostart=no\nstdout_logfile=/var/log/a.log\nstderr_logfile=/var/log/a.err\nstderr_logfile_maxbytes=1MB\n',
  });
  assert.deepEqual(services[0], {
    name: 'a',
    command: '/bin/a',
    priority: 5,
    autostart: false,
    startsecs: 1,
    retry_limit: 3,
    autorestart: 'false',
    exitcodes: [0, 2],
    stopsecs: 20,
    user: 1000,
    stdout_logfile: '/var/log/a.log',
    stderr_logfile: '/var/log/a.err',
    source: 'import:supervisord',
  });
  assert.deepEqual(report.map((e) => [e.line, e.field, e.kind]), [[1, 'directory', 'approximated'], [6, 'stopsignal', 'unmapped'], [12, 'stderr_logfile_maxbytes', 'unmapped']]);
});

test('priority is any integer, as supervisord reads it: a negative one (start before the others) is kept, not refused', () => {
  const { services } = supervisord({ '/etc/supervisor/supervisord.conf': '[program:first]\ncommand=/bin/a\npriority=-5\n[program:later]\ncommand=/bin/b\npriority = +20\n' });
  assert.deepEqual(services.map((s) => [s.name, s.priority]), [['first', -5], ['later', 20]]);
  assert.throws(() => supervisord({ '/etc/supervisor/supervisord.conf': '[program:x]\ncommand=/bin/a\npriority=high\n' }), /supervisord\.conf:3: \[program:x\] priority: 'high' is not an integer/);
});

test('stdout_logfile=/dev/stdout (the container-log idiom) is reported as not mapped and left to svc’s log files, not written as a log path svcd refuses', () => {
  const { services, report } = supervisord({
    '/etc/supervisor/supervisord.conf': '[program:nginx]\ncommand=/bin/nginx\nstdout_logfile=/dev/stdout\nstderr_logfile=/dev/fd/2\n[program:php]\ncommand=/bin/php\nstdout_logfile=/proc/self/fd/1\nredirect_stderr=true\n',
  });
  assert.deepEqual(services.map((s) => [s.name, s.stdout_logfile, s.stderr_logfile]), [['nginx', undefined, undefined], ['php', undefined, undefined]]);
  assert.deepEqual(report.filter((e) => e.field !== 'directory').map((e) => [e.line, e.program, e.field, e.kind]), [
    [3, 'nginx', 'stdout_logfile', 'unmapped'],
    [4, 'nginx', 'stderr_logfile', 'unmapped'],
    [7, 'php', 'stdout_logfile', 'unmapped'],
    [8, 'php', 'redirect_stderr', 'approximated'],
  ]);
  assert.match(report.find((e) => e.field === 'stdout_logfile')?.message ?? '', /\/dev\/stdout is supervisord’s own output/);
});

test('an [include] files pattern that matches no file is reported at the files key (supervisord warns), the others still included', () => {
  const { services, report } = supervisord({
    '/etc/supervisor/supervisord.conf': '[program:main]\ncommand=/bin/main\ndirectory=/srv\n[include]\nfiles = conf.d/*.conf\n  missing/*.ini /etc/other.conf\n',
    '/etc/supervisor/conf.d/web.conf': '[program:web]\ncommand=/bin/web\ndirectory=/srv\n',
  });
  assert.deepEqual(services.map((s) => s.name), ['main', 'web']);
  assert.deepEqual(report.map((e) => [e.file, e.line, e.field, e.kind, e.message]), [
    ['supervisord.conf', 5, '[include] files', 'unmapped', "no file matches 'missing/*.ini' (relative to /etc/supervisor): nothing is included from it (supervisord warns and goes on)"],
    ['supervisord.conf', 5, '[include] files', 'unmapped', "no file matches '/etc/other.conf': nothing is included from it (supervisord warns and goes on)"],
  ]);
});

test('included files are named in the report by a path the user can open: beside the main file as it was named, absolute outside its folder', () => {
  const files = {
    '/home/u/app/deploy/supervisord.conf': '[include]\nfiles = conf.d/*.conf /opt/extra/*.ini\n',
    '/home/u/app/deploy/conf.d/web.conf': '[program:web]\ncommand=/bin/web\ndirectory=/srv\nstopsignal=INT\n',
    '/opt/extra/worker.ini': '[program:worker]\ncommand=/bin/worker\ndirectory=/srv\numask=022\n',
  };
  const fieldsOf = (label: string) => importFile('supervisord', '/home/u/app/deploy/supervisord.conf', label, memoryPorts(files)).report.map((e) => [e.file, e.line, e.field]);
  assert.deepEqual(fieldsOf('deploy/supervisord.conf'), [
    ['/opt/extra/worker.ini', 4, 'umask'],
    ['deploy/conf.d/web.conf', 4, 'stopsignal'],
  ]);
  assert.deepEqual(fieldsOf('/home/u/app/deploy/supervisord.conf')[0], ['/home/u/app/deploy/conf.d/web.conf', 4, 'stopsignal']);
  assert.throws(() => importFile('supervisord', '/home/u/app/deploy/supervisord.conf', 'deploy/supervisord.conf', memoryPorts({ ...files, '/home/u/app/deploy/conf.d/web.conf': '[program:web]\ncommand=/bin/web\npriority=high\n' })), /^SvcError: deploy\/conf\.d\/web\.conf:3: \[program:web\] priority: 'high' is not an integer/);
});

test('a program without directory is reported once (approximated): supervisord ran it in its own working directory, unknown here; svc runs it in SVC_ROOT', () => {
  const { services, report } = supervisord({
    '/etc/supervisor/supervisord.conf': '[program:here]\ncommand=/bin/a\ndirectory=/srv/a\n\n[program:pool]\ncommand=/bin/p %(process_num)d\nprocess_name=pool-%(process_num)d\nnumprocs=2\n',
  });
  assert.deepEqual(services.map((s) => [s.name, s.cwd]), [['here', '/srv/a'], ['pool-0', undefined], ['pool-1', undefined]]);
  assert.deepEqual(report.map((e) => [e.file, e.line, e.program, e.field, e.kind]), [['supervisord.conf', 5, 'pool', 'directory', 'approximated']]);
  assert.match(report[0]?.message ?? '', /supervisord ran the program in its own working directory .* svc runs it in SVC_ROOT/);
});
