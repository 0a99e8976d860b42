import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fixture, eventually, REPO, SVC, useDaemon } from '../helpers/daemon.js';
import { runCli, svcAgainst } from '../helpers/cli.js';

const d = useDaemon();
const svc = svcAgainst(d);

test('svc --help and --version', async () => {
  const help = await runCli(['--help']);
  assert.equal(help.code, 0);
  for (const cmd of ['list', 'add', 'update', 'info', 'rm', 'start', 'stop', 'restart', 'signal', 'logs']) assert.match(help.stdout, new RegExp(`\\n  ${cmd}\\b`));
  const version = await runCli(['--version']);
  assert.match(version.stdout.trim(), /^\d+\.\d+\.\d+$/);
});

test('add, list, info, logs, stop, start, restart, rm by name', async () => {
  const add = await svc('add', 'web', '--', process.execPath, fixture('forever.js'));
  assert.equal(add.code, 0, add.stderr);
  assert.match(add.stdout, /^added web \([0-9a-f-]{36}\)/);
  await eventually(async () => (await svc('list')).stdout.includes('Running'));
  const list = await svc('list');
  assert.match(list.stdout, /^NAME\s+STATUS\s+PID\s+CPU\s+MEM\s+UPTIME\s+RESTARTS\s+ID\n/);
  assert.match(list.stdout, /\nweb\s+Running\s+\d+/);
  const json = JSON.parse((await svc('--json', 'list')).stdout) as { name: string; id: string }[];
  const id = json.find((p) => p.name === 'web')!.id;
  const info = await svc('info', id);
  assert.match(info.stdout, /name:\s+web/);
  assert.match(info.stdout, /source = "cli:add"/);
  await eventually(async () => (await svc('logs', 'web', '--tail', '5')).stdout.includes('started'));
  const stop = await svc('stop', 'web');
  assert.match(stop.stdout, /web\s+ok\s+Stopped/);
  assert.match((await svc('start', 'web')).stdout, /web\s+ok\s+Running/);
  assert.match((await svc('restart', '--all')).stdout, /web\s+ok\s+Running/);
  assert.match((await svc('rm', 'web')).stdout, /web\s+ok\s+Removed/);
  assert.match((await svc('list')).stdout, /no programs/);
});

test('add from a TOML file; a syntax error names file:line:col', async () => {
  const good = join(d.root, 'job.toml');
  writeFileSync(good, `name = "job"\ncommand = "${process.execPath}"\nargs = ["${fixture('forever.js')}"]\nautostart = false\n`);
  const res = await svc('add', 'job', '-f', good);
  assert.equal(res.code, 0, res.stderr);
  assert.match((await svc('info', 'job')).stdout, /autostart = false/);
  const bad = join(d.root, 'bad.toml');
  writeFileSync(bad, 'name = "x"\ncommand = \n');
  const err = await svc('add', 'x', '-f', bad);
  assert.equal(err.code, 2);
  assert.match(err.stderr, new RegExp(`^svc: ${bad}:2:\\d+: `));
});

test('add -f: an unknown field is named at its place in the file (exit 2, nothing sent)', async () => {
  const typo = join(d.root, 'typo.toml');
  writeFileSync(typo, `command = "${process.execPath}"\ncomand = "x"\n`);
  const add = await svc('add', 'typo', '-f', typo);
  assert.equal(add.code, 2);
  assert.equal(add.stderr, `svc: ${typo}:2:1: comand: unknown field\n`);
  const yaml = join(d.root, 'typo.yaml');
  writeFileSync(yaml, 'command: run\nbogus: 1\nalso: 2\n');
  const two = await svc('add', 'typo', '-f', yaml);
  assert.equal(two.stderr, `svc: ${yaml}:2:1: bogus: unknown field\n${yaml}:3:1: also: unknown field\n`);
  const stack = join(d.root, 'a-stack.json');
  writeFileSync(stack, '{"services": []}');
  const asProgram = await svc('add', 'typo', '-f', stack);
  assert.equal(asProgram.code, 2);
  assert.equal(asProgram.stderr, `svc: ${stack}:1:2: services: unknown field (a stack file: use svc apply)\n`);
  assert.match((await svc('list')).stdout, /^(?![\s\S]*\btypo\b)/, 'nothing was added');
});

test('add -f and update -f: a value the schema refuses is named at its place in the file (exit 2, nothing sent)', async () => {
  const file = join(d.root, 'wrong-types.toml');
  writeFileSync(file, `command = "${process.execPath}"\nstopsecs = "soon"\nautostart = false\n\n[health_check]\ntype = "tcp"\nport = 99999\n`);
  const add = await svc('add', 'typed', '-f', file);
  assert.equal(add.code, 2, add.stderr);
  assert.deepEqual(add.stderr.replace(/^svc: /, '').trimEnd().split('\n').sort(), [`${file}:2:1: stopsecs: must be integer`, `${file}:7:1: health_check.port: must be <= 65535`]);
  // A value given as an option is not the file's: it keeps the program's name.
  const mixed = await svc('add', 'typed', '-f', file, '--stopsecs', '3', '--set', 'max_concurrent=100');
  assert.equal(mixed.code, 2, mixed.stderr);
  assert.deepEqual(mixed.stderr.replace(/^svc: /, '').trimEnd().split('\n').sort(), [`${file}:7:1: health_check.port: must be <= 65535`, "program 'typed': max_concurrent: must be <= 64"]);
  const json = join(d.root, 'wrong-types.json');
  writeFileSync(json, `{\n  "command": "${process.execPath}",\n  "startsecs": -1\n}\n`);
  const fromJson = await svc('add', 'typed', '-f', json);
  assert.equal(fromJson.stderr, `svc: ${json}:3:3: startsecs: must be >= 0\n`);
  assert.match((await svc('list')).stdout, /^(?![\s\S]*\btyped\b)/, 'nothing was added');

  assert.equal((await svc('add', 'typed', '--no-autostart', '--', process.execPath, fixture('forever.js'))).code, 0);
  const patch = join(d.root, 'patch.yaml');
  writeFileSync(patch, 'priority: 5\nretry_limit: many\n');
  const update = await svc('update', 'typed', '-f', patch);
  assert.equal(update.code, 2, update.stderr);
  assert.equal(update.stderr, `svc: ${patch}:2:1: retry_limit: must be integer\n`);
  assert.doesNotMatch((await svc('info', 'typed')).stdout, /priority = 5/, 'nothing was changed');
  assert.equal((await svc('rm', 'typed')).code, 0);
});

test('--env-file names a file svcd reads: svc itself never opens it (Node 20 took it for its own option and exited 9)', () => {
  // As a user runs it: the installed svc is dist/bin/svc.js through its #! line.
  const missing = join(d.root, 'not-here-yet.env');
  const add = spawnSync(SVC, ['add', 'envy', '--no-autostart', '--env-file', missing, '--', process.execPath, fixture('forever.js')], { env: { ...process.env, SVC_URL: d.url }, encoding: 'utf8' });
  assert.equal(add.status, 0, add.stderr);
  const update = spawnSync(SVC, ['update', 'envy', `--env-file=${missing}.2`], { env: { ...process.env, SVC_URL: d.url }, encoding: 'utf8' });
  assert.equal(update.status, 0, update.stderr);
  const info = spawnSync(SVC, ['info', 'envy', '--json'], { env: { ...process.env, SVC_URL: d.url }, encoding: 'utf8' });
  assert.equal((JSON.parse(info.stdout) as { config: { env_file?: string } }).config.env_file, `${missing}.2`);
  assert.equal(spawnSync(SVC, ['rm', 'envy'], { env: { ...process.env, SVC_URL: d.url } }).status, 0);
});

test('the server message is printed for a bad field, with a non-zero exit', async () => {
  const res = await svc('add', 'bad', 'x', '--set', 'max_concurrent=100');
  assert.equal(res.code, 1);
  assert.equal(res.stderr, "svc: program 'bad': max_concurrent: must be <= 64\n");
  const dup = await svc('add', 'job', 'y');
  assert.match(dup.stderr, /already exists/);
  const unknown = await svc('stop', 'ghost');
  assert.equal(unknown.stderr, "svc: no program named or with id 'ghost' (see: svc list)\n");
});

test('update changes fields and renames', async () => {
  // Its help says what the command does: process fields at the next start, the others at once.
  assert.match((await svc('update', '--help')).stdout.replace(/\s+/g, ' '), /command, args, cwd, .*env, .*: at the next start \(svc restart\); the others at once/);
  const res = await svc('update', 'job', '--stopsecs', '4', '--name', 'job2', '-e', 'A=1');
  assert.equal(res.code, 0, res.stderr);
  assert.equal(res.stdout, 'updated job, now named job2 (restart it to apply process changes: svc restart job2)\n', 'env is read at spawn; the new name is said');
  const info = (await svc('info', 'job2')).stdout;
  assert.match(info, /stopsecs = 4/);
  assert.match(info, /env = \{"A":"1"\}/);
  assert.match(info, /source = "cli:update"/);
  const policy = await svc('update', 'job2', '--stopsecs', '5');
  assert.equal(policy.stdout, 'updated job2\n', 'stopsecs needs no restart: no hint');
  // -e adds to the environment; --unset env.KEY drops one variable; a missing one is a usage error.
  assert.equal((await svc('update', 'job2', '-e', 'B=2')).code, 0);
  assert.match((await svc('info', 'job2')).stdout, /env = \{"A":"1","B":"2"\}/, 'A is kept');
  assert.equal((await svc('update', 'job2', '--unset', 'env.A')).code, 0);
  assert.match((await svc('info', 'job2')).stdout, /env = \{"B":"2"\}/);
  const missing = await svc('update', 'job2', '--unset', 'env.NOPE');
  assert.equal(missing.code, 2);
  assert.equal(missing.stderr, 'svc: --unset env.NOPE: the program has no such field\n');
  assert.equal((await svc('update', 'job2', '--unset', 'env.B')).code, 0);
  assert.doesNotMatch((await svc('info', 'job2')).stdout, /env =/, 'the last variable gone: no env at all');
  // A whole field too: a misspelt one is a usage error (it was svcd's `unknown field at JSON line 1
  // column 24`, exit 1), as is one the program does not set (it passed for done) or a required one.
  for (const [field, why] of [
    ['stopsec', 'not a program field'],
    ['cron', 'the program has no such field'],
    ['name', 'a program must have a name (change it with --name)'],
  ]) {
    const res = await svc('update', 'job2', '--unset', field);
    assert.equal(res.code, 2, `--unset ${field}: ${res.stderr}`);
    assert.equal(res.stderr, `svc: --unset ${field}: ${why}\n`);
  }
  assert.equal((await svc('update', 'job2', '--unset', 'stopsecs')).code, 0);
  assert.doesNotMatch((await svc('info', 'job2')).stdout, /stopsecs =/);
});

test('batch forms: --group and --all; a signal name not in the set is a usage error, said before anything is sent', async () => {
  await svc('add', 'w1', '--group', 'workers', '--', process.execPath, fixture('forever.js'));
  await svc('add', 'w2', '--group', 'workers', '--', process.execPath, fixture('forever.js'));
  const stop = await svc('stop', '--group', 'workers');
  assert.match(stop.stdout, /w1\s+ok\s+Stopped/);
  assert.match(stop.stdout, /w2\s+ok\s+Stopped/);
  await svc('start', 'w1');
  const sighup = await svc('signal', 'SIGHUP', 'w1');
  assert.equal(sighup.code, 0, `SIGHUP is HUP: ${sighup.stderr}`);
  await svc('stop', 'w1');
  const sig = await svc('signal', 'bogus', 'w1');
  assert.equal(sig.code, 2);
  // Said in the command's words, not as the request body's path (it read `action.payload.signal: …`, exit 1).
  assert.equal(sig.stderr, "svc: signal: 'bogus' is not one of hup, int, term, kill, quit, usr1, usr2 (any case, with or without SIG)\n");
  assert.equal((await svc('signal', 'SIGKILLL', '--all')).code, 2, 'checked before --all reaches any program');
  const none = await svc('stop');
  assert.equal(none.code, 2);
  for (const args of [['restart', 'wrokers:*'], ['restart', '--group', 'wrokers']]) {
    const typo = await svc(...args);
    assert.equal(typo.code, 1, `${args.join(' ')}: a group with no program is an error`);
    assert.equal(typo.stderr, "svc: no program is in group 'wrokers'\n");
  }
  // --json: the outcomes on stdout, the error as the one JSON object on stderr that every error is.
  const json = await svc('--json', 'start', 'w1', 'wrokers:*');
  assert.equal(json.code, 1);
  assert.deepEqual((JSON.parse(json.stdout) as { name: string; ok: boolean }[]).map((r) => [r.name, r.ok]), [['w1', true]]);
  assert.deepEqual(JSON.parse(json.stderr), { error: { message: "no program is in group 'wrokers'", exit_code: 1 } });
});

test('a daemon that is not running gives one clear line', async () => {
  const res = await runCli(['list'], { SVC_URL: 'http://127.0.0.1:1' });
  assert.equal(res.code, 3); // daemon not reachable (docs/cli.md)
  // Run from a checkout, the hint names `npm start` there (installed, it says svcd).
  assert.equal(res.stderr, `svc: cannot reach svcd at http://127.0.0.1:1: connection refused (is svcd running? start it with: npm start (in ${REPO}))\n`);
});

test('https:// to svcd (plain HTTP) says to use http://, not OpenSSL\'s words', async () => {
  const https = d.url.replace(/^http:/, 'https:');
  const res = await runCli(['list'], { SVC_URL: https });
  assert.equal(res.code, 3);
  assert.equal(res.stderr, `svc: svcd at ${https} answered without TLS: svcd serves plain HTTP, so use ${d.url} (or the https address of a TLS proxy in front of it)\n`);
});

test('svc logs on a terminal drops the escape sequences a program wrote, except its colours (an OSC retitled the terminal or wrote to its clipboard); into a pipe the bytes go as written', { skip: existsSync('/usr/bin/script') ? false : 'script(1) (util-linux) is not installed' }, async () => {
  const add = await svc('add', 'escapes', '--', 'sh', '-c', 'printf "\\033]0;pwned\\007hello \\033[31mred\\033[0m\\n"; exec sleep 1000');
  assert.equal(add.code, 0, add.stderr);
  try {
    await eventually(async () => (await svc('logs', 'escapes')).stdout.includes('hello'));
    // eslint-disable-next-line no-control-regex -- escape sequences are what is looked for
    assert.match((await svc('logs', 'escapes')).stdout, /\x1b\]0;pwned\x07hello \x1b\[31mred/, 'piped: as written');
    const command = [process.execPath, SVC, '--url', d.url, 'logs', 'escapes'].map((a) => `'${a}'`).join(' ');
    const { NO_COLOR: _n, FORCE_COLOR: _f, ...env } = process.env;
    const tty = spawnSync('/usr/bin/script', ['-qfec', command, '/dev/null'], { encoding: 'utf8', env });
    assert.equal(tty.status, 0, tty.stderr);
    // eslint-disable-next-line no-control-regex -- escape sequences are what is looked for
    assert.match(tty.stdout, /hello \x1b\[31mred\x1b\[0m/);
    assert.doesNotMatch(tty.stdout, /pwned/);
  } finally {
    await svc('rm', 'escapes');
  }
});
