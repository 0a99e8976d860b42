import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readFileSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { eventually, fixture, removeRoot, startDaemon, SVCD, tempRoot, writeConfig } from '../helpers/daemon.js';
import { killMarked, marker, processesWith, runSvcd } from '../helpers/faults.js';
import { freePort } from '../helpers/ports.js';
import { killSpawnerOf } from '../helpers/spawner-binary.js';

/** Runs svcd with `args` on a fresh root holding `toml`; a start that is not refused ends after 20 s and fails the test. */
function svcd(args: string[], toml = '[server]\nport = 0\n'): { status: number | null; stderr: string } {
  const root = tempRoot();
  try {
    writeConfig(root, toml);
    const run = spawnSync(process.execPath, [SVCD, '--root', root, ...args], { encoding: 'utf8', timeout: 20_000, killSignal: 'SIGTERM' });
    return { status: run.status, stderr: run.stderr };
  } finally {
    removeRoot(root);
  }
}

void test('--port takes digits only: 12ab is refused (it listened on port 12)', () => {
  for (const port of ['12ab', '9002.5', '-1', '']) {
    const run = svcd(['--port', port]);
    assert.equal(run.status, 2, `--port ${port}: ${run.stderr}`);
    assert.match(run.stderr, /^svcd: refusing to start: --port: must be an integer from 0 to 65535$/m);
    assert.doesNotMatch(run.stderr, /svcd ready/);
  }
});

void test('an unknown --log-level is refused (it was replaced by info without a word)', () => {
  const run = svcd(['--log-level', 'verbose']);
  assert.equal(run.status, 2, run.stderr);
  assert.match(run.stderr, /^svcd: refusing to start: --log-level: must be debug, info, warn or error \(not "verbose"\)$/m);
});

void test('a --config file that does not exist is refused, not replaced by the embedded defaults', () => {
  const dir = tempRoot();
  try {
    const missing = join(dir, 'typo.toml');
    const run = svcd(['--config', missing]);
    assert.equal(run.status, 2, run.stderr);
    assert.ok(run.stderr.includes(`svcd: refusing to start: ${missing}: cannot read: ENOENT`), run.stderr);
    assert.doesNotMatch(run.stderr, /svcd ready/);
  } finally {
    removeRoot(dir);
  }
});

void test('a file where the configuration names a folder is refused by its key and line', () => {
  const run = svcd([], '[server]\nport = 0\n[storage]\ndata_dir = "/dev/null"\n');
  assert.equal(run.status, 2, run.stderr);
  assert.match(run.stderr, /^svcd: refusing to start: \S+\/conf\/svc\.toml:4: storage\.data_dir = "\/dev\/null": not a directory/m);
});

void test('an unknown option or an argument is a usage error, exit 2 like every refusal; --help and --version exit 0', () => {
  for (const args of [['--bogus'], ['foo']]) {
    const run = svcd(args);
    assert.equal(run.status, 2, `${args.join(' ')}: ${run.stderr}`);
    assert.match(run.stderr, /^error: (unknown option '--bogus'|too many arguments)/m);
  }
  assert.equal(svcd(['--version']).status, 0);
  assert.equal(svcd(['--help']).status, 0);
});

void test('SIGHUP neither ends svcd nor reloads svc.toml: it says so, and names what in the file would refuse the next start', async () => {
  const d = await startDaemon();
  try {
    const file = join(d.root, 'conf', 'svc.toml');
    d.proc.kill('SIGHUP');
    await eventually(() => d.stderr.some((l) => l.includes(`SIGHUP: svcd does not reload its configuration while it runs; restart svcd to apply ${file} (which is valid)`)), 10_000, 'the SIGHUP line');
    assert.equal((await d.request('GET', '/health')).status, 200);
    writeConfig(d.root, '[server]\nport = 0\nprot = 1\n');
    d.proc.kill('SIGHUP');
    await eventually(() => d.stderr.some((l) => l.includes(`${file} would refuse the next start: ${file}:3: unknown key server.prot`)), 10_000, 'the refusal the file would cause');
    assert.equal((await d.request('GET', '/health')).status, 200);
  } finally {
    assert.equal(await d.stop(), 0, 'a graceful stop after both signals');
    removeRoot(d.root);
  }
});

void test('svcd outlives the reader of its stderr (a closed pipe ended svcd at its next log line) and goes on logging to svcd.log', async () => {
  const root = tempRoot();
  writeConfig(root, '[server]\nport = 0\n');
  const proc = spawn(process.execPath, [SVCD], { env: { ...process.env, SVC_ROOT: root, SVC_SPAWNER: 'off' }, stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
  try {
    const url = await new Promise<string>((resolveUrl, reject) => {
      createInterface({ input: proc.stderr }).on('line', (line) => {
        const m = /"msg":"svcd ready".*"listen":"([^"]+)"/.exec(line);
        if (m) resolveUrl(`http://${m[1]}`);
      });
      proc.once('exit', (code) => reject(new Error(`svcd exited with ${code}`)));
    });
    proc.stderr.destroy(); // the reader goes away: svcd's next write to stderr fails with EPIPE
    const log = join(root, 'logs', 'svcd.log');
    for (let i = 0; i < 2; i++) {
      proc.kill('SIGHUP'); // each logs a line
      await eventually(() => readFileSync(log, 'utf8').split('SIGHUP: svcd does not reload').length > i + 1, 10_000, `SIGHUP line ${i + 1} in svcd.log`);
    }
    assert.match(readFileSync(log, 'utf8'), /stderr cannot be written \(EPIPE: its reader went away\); the daemon log goes on in this file only/);
    assert.equal((await fetch(`${url}/health`)).status, 200);
    proc.kill('SIGTERM');
    assert.equal(await exited, 0);
  } finally {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    removeRoot(root);
  }
});

void test('a port already taken refuses the start before any program is started (they were started, then left running unsupervised)', async () => {
  const name = 'port-taken';
  const port = await freePort();
  const other = await startDaemon(tempRoot(), { config: `[server]\nport = ${port}\n` });
  const root = tempRoot();
  try {
    const d = await startDaemon(root);
    assert.equal((await d.request('POST', '/api/v1/programs', { name, command: process.execPath, args: [fixture('forever.js'), marker(name)] })).status, 201);
    await eventually(() => processesWith(name).length === 1, 10_000, 'the program runs');
    assert.equal(await d.stop(), 0); // stopped; it starts again at the next boot (autostart)
    assert.equal(processesWith(name).length, 0);
    const run = await runSvcd(root, ['--port', String(port)]);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, new RegExp(`svcd: refusing to start: cannot listen on 127\\.0\\.0\\.1:${port}: address already in use \\(is another svcd running\\?\\)`));
    assert.deepEqual(processesWith(name), [], 'no program started by the refused svcd');
  } finally {
    killMarked([name]);
    killSpawnerOf(join(root, 'run', 'spawner.sock'));
    await other.stop();
    removeRoot(other.root);
    removeRoot(root);
  }
});

void test('a second svcd on the same SVC_ROOT refuses at once, names the running one, and leaves its store untouched (LevelDB renamed its LOG)', async () => {
  const first = await startDaemon(tempRoot());
  try {
    const store = join(first.root, 'data', 'state.db');
    const logBefore = statSync(join(store, 'LOG')).ino;
    const run = await runSvcd(first.root, ['--port', String(await freePort())]);
    assert.equal(run.code, 2, run.stderr);
    const pid = first.proc.pid!;
    assert.ok(run.stderr.includes(`svcd: refusing to start: the state store at ${store} is in use by another process (pid ${pid}: `), run.stderr);
    assert.match(run.stderr, /svcd\.js\); is another svcd running with this SVC_ROOT\? svcd refuses to start and has changed nothing\./);
    assert.equal(statSync(join(store, 'LOG')).ino, logBefore, "the running svcd's LevelDB LOG is where it was");
    assert.equal(existsSync(join(store, 'LOG.old')), false);
    assert.equal((await first.request('GET', '/api/v1/programs')).status, 200, 'the first svcd still answers');
  } finally {
    await first.stop();
    removeRoot(first.root);
  }
});

void test('socket_only: a socket another svcd serves is not taken over (the newcomer removed it, and the first svcd could no longer be reached); one left by a killed svcd is', async () => {
  const dir = tempRoot();
  const path = join(dir, 'svcd.sock');
  const toml = `[server]\nsocket_only = true\nsocket_path = "${path}"\n`;
  const first = await startDaemon(tempRoot(), { config: toml });
  const root = tempRoot();
  let second: Awaited<ReturnType<typeof startDaemon>> | null = null;
  try {
    writeConfig(root, toml);
    const run = spawnSync(process.execPath, [SVCD, '--root', root], { encoding: 'utf8', timeout: 20_000, killSignal: 'SIGTERM' });
    assert.equal(run.status, 2, run.stderr);
    assert.ok(run.stderr.includes(`svcd: refusing to start: cannot listen on ${path}: address already in use (is another svcd running?)`), run.stderr);
    assert.equal(await healthOverSocket(path), 200, 'the first svcd still answers on its socket');
    // A killed svcd leaves its socket file with no one listening: the next one replaces it.
    process.kill(first.proc.pid!, 'SIGKILL');
    await first.stop();
    assert.ok(lstatSync(path).isSocket(), 'the killed svcd left its socket');
    second = await startDaemon(root, { config: toml });
    assert.equal(await healthOverSocket(path), 200, 'the next svcd answers on the replaced socket');
  } finally {
    await first.stop();
    await second?.stop();
    killSpawnerOf(join(first.root, 'run', 'spawner.sock'));
    killSpawnerOf(join(root, 'run', 'spawner.sock'));
    removeRoot(first.root);
    removeRoot(root);
    removeRoot(dir);
  }
});

function healthOverSocket(socketPath: string): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ socketPath, path: '/health' }, (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.once('error', reject);
    req.end();
  });
}
