import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { SVC, eventually, startDaemon, removeRoot, type RunningDaemon } from '../helpers/daemon.js';
import { runCli } from '../helpers/cli.js';

let d: RunningDaemon;
before(async () => {
  d = await startDaemon();
});
after(async () => {
  await d.stop();
  removeRoot(d.root);
});

/**
 * Bad usage of every command exits 2 (docs/cli.md): a missing argument, an unknown option, an
 * invalid choice or value. Each row would reach the daemon if the usage were accepted.
 */
const BAD_USAGE: string[][] = [
  ['frobnicate'],
  ['list', '--bogus'],
  ['status', 'a', 'b'],
  ['info'],
  ['describe'],
  ['show'],
  ['add'],
  ['add', 'x'],
  ['add', 'x', '--autorestart', 'sometimes'],
  ['add', 'x', 'y', '--startsecs', 'soon'],
  ['update'],
  ['start'],
  ['stop'],
  ['restart'],
  ['reload'],
  ['rm'],
  ['delete'],
  ['signal'],
  ['signal', 'bogus', 'x'],
  ['signal', '9', 'x'],
  ['start', 'all', 'web'],
  ['stop', ':*'],
  ['logs', '--tail', 'many'],
  ['logs', 'x', '--tail', '5001'],
  ['logs', 'x', '--source', 'both-ish'],
  ['flush', 'a', 'b'],
  ['shutdown', 'now'],
  ['events', '--limit', 'lots'],
  ['events', '--from', 'last tuesday'],
  ['events', '--type', 'process_exti'],
  ['events', '--from', 'now', '--to', '2h'],
  ['events', '--stats', '--type', 'process_exit'],
  ['events', '--stats', '--limit', '5'],
  ['apply'],
  ['check'],
  ['export', '--format', 'rpm'],
  ['import'],
  ['import', 'pm2'],
  ['login', 'extra'],
  ['logout', 'extra'],
  ['token'],
  ['token', 'create'],
  ['token', 'create', 'ci', '--role', 'owner'],
  ['token', 'create', 'ci', '--role', 'Admin'],
  ['token', 'revoke'],
  ['auth'],
  ['auth', 'nope'],
  ['audit', '--limit'],
  ['audit', '--order', 'newest'],
  ['license'],
  ['license', 'inspect'],
  ['plugins'],
  ['storage', 'discard'],
  ['ota'],
  ['ota', 'rollback'],
  ['completion', 'tcsh'],
  ['ui', '--bogus'],
];

test('every command with bad usage exits 2, with one line of why on stderr', async () => {
  for (const args of BAD_USAGE) {
    const res = await runCli(args, { SVC_URL: d.url });
    assert.equal(res.code, 2, `svc ${args.join(' ')}: exit ${res.code}\n${res.stderr}`);
    assert.ok(res.stderr.length > 0, `svc ${args.join(' ')}: says why`);
    assert.doesNotMatch(res.stderr, /\n\s+at /, `svc ${args.join(' ')}: no stack trace`);
  }
});

test('help and version exit 0; an API error exits 1; an unreachable daemon exits 3', async () => {
  assert.equal((await runCli(['--help'])).code, 0);
  assert.equal((await runCli(['help', 'list'])).code, 0);
  assert.equal((await runCli(['--version'])).code, 0);
  const missing = await runCli(['info', 'ghost'], { SVC_URL: d.url });
  assert.equal(missing.code, 1, missing.stderr);
  const refused = await runCli(['list'], { SVC_URL: 'http://127.0.0.1:1' });
  assert.equal(refused.code, 3, refused.stderr);
  assert.match(refused.stderr, /cannot reach svcd at http:\/\/127\.0\.0\.1:1/);
});

test('an unknown command suggests only a read-only command, or none', async () => {
  const near = await runCli(['lisst'], { SVC_URL: d.url });
  assert.equal(near.code, 2);
  assert.match(near.stderr, /did you mean: svc list\?/);
  // `restat` is one letter from `restart`: never suggested, since it changes state.
  for (const word of ['restat', 'stpo', 'rmm', 'delet', 'shutdwn', 'strat']) {
    const res = await runCli([word], { SVC_URL: d.url });
    assert.equal(res.code, 2, word);
    assert.doesNotMatch(res.stderr, /did you mean: svc (restart|reload|stop|rm|delete|remove|start|shutdown|add|update|signal|apply|flush)\b/, `${word}: ${res.stderr}`);
  }
  assert.match((await runCli(['stauts'], { SVC_URL: d.url })).stderr, /did you mean: svc status\?/);
});

test('--json: errors are one JSON object on stderr, usage errors too', async () => {
  const api = await runCli(['--json', 'info', 'ghost'], { SVC_URL: d.url });
  assert.equal(api.code, 1);
  assert.deepEqual(JSON.parse(api.stderr), { error: { message: "no program named or with id 'ghost' (see: svc list)", exit_code: 1 } });
  const usage = await runCli(['info', '--json'], { SVC_URL: d.url });
  assert.equal(usage.code, 2);
  assert.match((JSON.parse(usage.stderr) as { error: { message: string } }).error.message, /missing required argument/);
  const refused = await runCli(['list', '--json'], { SVC_URL: 'http://127.0.0.1:1' });
  assert.equal(refused.code, 3);
  assert.equal((JSON.parse(refused.stderr) as { error: { kind: string } }).error.kind, 'unreachable');
});

test('a URL that answers but is not svcd says so (exit 1, no HTML dump)', async () => {
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><html><body><h1>It works</h1></body></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const port = (server.address() as AddressInfo).port;
    const res = await runCli(['list', '--url', `127.0.0.1:${port}`]);
    assert.equal(res.code, 1, res.stderr);
    assert.match(res.stderr, /is not svcd/);
    assert.doesNotMatch(res.stderr, /<html|doctype/i);
  } finally {
    server.close();
  }
});

test('a URL that answers 404 without JSON (a proxy, another server) is not svcd either', async () => {
  const server: Server = createServer((_req, res) => {
    res.writeHead(404, { 'content-length': '0' });
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const res = await runCli(['list', '--url', url]);
    assert.equal(res.code, 1, res.stderr);
    assert.equal(res.stderr, `svc: ${url} answered (HTTP 404, no content type) but is not svcd: check --url or SVC_URL\n`);
  } finally {
    server.close();
  }
  const missing = await runCli(['info', 'ghost'], { SVC_URL: d.url });
  assert.equal(missing.stderr, "svc: no program named or with id 'ghost' (see: svc list)\n", "svcd's own 404 is still its message");
});

test('--url takes host:port without a scheme; a bad address is a usage error', async () => {
  const hostPort = d.url.replace(/^http:\/\//, '');
  const res = await runCli(['list', '--url', hostPort]);
  assert.equal(res.code, 0, res.stderr);
  const bad = await runCli(['list', '--url', 'ftp://example.org']);
  assert.equal(bad.code, 2, bad.stderr);
  assert.match(bad.stderr, /unsupported scheme/);
});

test('svc login against a daemon without auth says auth is off and saves nothing', async () => {
  const res = await runCli(['login', '--token', 'whatever'], { SVC_URL: d.url, XDG_CONFIG_HOME: d.root });
  assert.equal(res.code, 1);
  assert.match(res.stderr, /auth is off on svcd/);
});

test('a stack written to a file not named .toml, .json, .yaml or .yml needs --as (the watched directory would skip it)', async () => {
  const procfile = join(d.root, 'Procfile.txt-test');
  writeFileSync(procfile, `web: ${process.execPath} server.js\n`);
  for (const args of [
    ['export', '-o', join(d.root, 'stack.txt')],
    ['import', 'procfile', procfile, '-o', join(d.root, 'imported.txt')],
  ]) {
    const res = await runCli(args, { SVC_URL: d.url });
    assert.equal(res.code, 2, `${args.join(' ')}: ${res.stderr}`);
    assert.match(res.stderr, /--output .*\.txt: name the file \.toml, \.json, \.yaml or \.yml \(the watched stacks directory reads only those\), or give --as toml, json or yaml\n$/);
    assert.equal(existsSync(args.at(-1)!), false, 'nothing written');
  }
  const named = await runCli(['export', '--as', 'toml', '-o', join(d.root, 'stack.txt')], { SVC_URL: d.url });
  assert.equal(named.code, 0, named.stderr);
  assert.equal(existsSync(join(d.root, 'stack.txt')), true);
});

test('an output path that cannot be written is one line naming it (exit 1, no stack trace)', async () => {
  const file = join(d.root, 'a-file');
  writeFileSync(file, '');
  const procfile = join(d.root, 'Procfile');
  writeFileSync(procfile, `web: ${process.execPath} server.js\n`);
  const runs: [string[], string][] = [
    [['export', '-o', join(file, 'x.toml')], 'open'],
    [['export', '--format', 'systemd', '-o', join(file, 'units')], 'mkdir'],
    [['import', 'procfile', procfile, '-o', join(file, 'x.toml')], 'open'],
    [['license', 'keygen', '--out', join(file, 'keys')], 'mkdir'],
  ];
  for (const [args, call] of runs) {
    const res = await runCli(args, { SVC_URL: d.url });
    assert.equal(res.code, 1, `${args.join(' ')}: ${res.stderr}`);
    const last = res.stderr.trimEnd().split('\n').at(-1) ?? '';
    assert.equal(last, `svc: ENOTDIR: not a directory, ${call} '${args.at(-1)}'`, args.join(' '));
    assert.doesNotMatch(res.stderr, /unexpected error|\n\s+at /, args.join(' '));
  }
  const json = await runCli(['--json', 'export', '-o', join(file, 'x.toml')], { SVC_URL: d.url });
  assert.equal(json.code, 1);
  assert.deepEqual(JSON.parse(json.stderr), { error: { message: `ENOTDIR: not a directory, open '${join(file, 'x.toml')}'`, exit_code: 1 } });
});

test('an output folder under /proc or /sys is a usage error at once (Node\'s recursive mkdir spun forever under /proc)', async () => {
  for (const args of [
    ['license', 'keygen', '--out', '/proc/svc-keys'],
    ['export', '--format', 'systemd', '--output', '/proc/svc-units/x'],
  ]) {
    const res = await runCli(args, { SVC_URL: d.url });
    assert.equal(res.code, 2, `${args.join(' ')}: ${res.stderr}`);
    assert.equal(res.stderr, `svc: ${args.at(-2)} ${args.at(-1)}: a folder under /proc or /sys cannot hold files\n`);
  }
});

test('without auth and plugins: svc auth status says open mode; plugin commands name the plugin that is not loaded', async () => {
  const env = { SVC_URL: d.url, XDG_CONFIG_HOME: d.root };
  const status = await runCli(['auth', 'status'], env);
  assert.equal(status.code, 0, status.stderr);
  assert.match(status.stdout, /^mode open; auth is off on svcd at /);
  const json = await runCli(['--json', 'auth', 'status'], env);
  assert.equal(json.code, 0, json.stderr);
  assert.deepEqual(JSON.parse(json.stdout), { auth_required: false, mode: 'open', authenticated: false, security_plugin: false });
  for (const [args, plugin] of [
    [['token', 'list'], 'security'],
    [['audit'], 'security'],
    [['auth', 'disable-secret'], 'security'],
    [['notify', 'status'], 'notify'],
  ] as const) {
    const res = await runCli([...args], env);
    assert.equal(res.code, 1, args.join(' '));
    assert.match(res.stderr, new RegExp(`^svc: no route for [A-Z]+ \\S+: the ${plugin} plugin is not loaded on svcd \\(svc plugins list; docs/${plugin}\\.md\\)\\n$`), args.join(' '));
  }
});

test('output into a pipe whose reader has gone (svc logs | head) ends quietly, exit 0, no stack trace', async () => {
  const add = await runCli(['add', 'chatty', '--', process.execPath, '-e', 'for (let i = 0; i < 3000; i++) console.log("line " + i); setInterval(() => {}, 1000)'], { SVC_URL: d.url });
  assert.equal(add.code, 0, add.stderr);
  await eventually(async () => (await runCli(['logs', 'chatty', '--tail', '1', '--source', 'stdout'], { SVC_URL: d.url })).stdout.includes('line 2999'));
  for (const args of [['list'], ['info', 'chatty'], ['logs', 'chatty', '--tail', '3000'], ['logs', '--tail', '3000']]) {
    // The reader closes its end before svc writes a byte: every write of svc meets EPIPE.
    const child = spawn(process.execPath, [SVC, ...args], { env: { ...process.env, SVC_URL: d.url }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    assert.equal(stderr, '', `svc ${args.join(' ')}: nothing on stderr`);
    assert.equal(code, 0, `svc ${args.join(' ')}`);
  }
  assert.equal((await runCli(['rm', 'chatty'], { SVC_URL: d.url })).code, 0);
});
