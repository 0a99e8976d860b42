// SpawnerOs (the OS port over svc-spawner) against real processes: exits, signals, process
// groups, log files, captured output, timeouts, identity, and grandchildren reaped as orphans.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually, fixture, pidAlive, removeRoot } from '../../helpers/daemon.js';
import { captureEndsAtAbort, killPid, parentOf, sanitizerReports, spawnerBinary, spawnerPaths, waitGone } from '../../helpers/spawner.js';
import { SpawnerOs } from '../../../controllers/os/spawner-os.js';
import type { ExitInfo, SpawnSpec } from '../../../controllers/os/port.js';

const paths = spawnerPaths();
const warnings: string[] = [];
let os: SpawnerOs;
const started: number[] = [];

before(async () => {
  os = await SpawnerOs.start({ binary: spawnerBinary(), socketPath: paths.socketPath, logFile: paths.logFile, warn: (m) => warnings.push(m) });
});

after(async () => {
  const spawner = os.spawnerPid;
  for (const pid of started) killPid(pid, true);
  await os.close();
  await waitGone(spawner, 'the spawner exits after BYE once its children are gone');
  const reports = sanitizerReports(paths.logFile);
  removeRoot(paths.root);
  assert.equal(reports, '');
  assert.deepEqual(warnings, []);
});

const env = { PATH: '/usr/bin:/bin' };
const spec = (file: string, args: string[], extra: Partial<SpawnSpec> = {}): SpawnSpec => ({
  file,
  args,
  cwd: paths.root,
  env,
  stdoutPath: join(paths.root, 'logs', 'p.out'),
  stderrPath: join(paths.root, 'logs', 'p.err'),
  ...extra,
});

async function run(s: SpawnSpec): Promise<{ pid: number; exit: Promise<ExitInfo> }> {
  let resolveExit!: (e: ExitInfo) => void;
  const exit = new Promise<ExitInfo>((r) => (resolveExit = r));
  const handle = await os.spawn(s, resolveExit);
  started.push(handle.pid);
  return { pid: handle.pid, exit };
}

test('exit codes, signals and rusage come back; start time matches /proc', async () => {
  const a = await run(spec('sh', ['-c', 'exit 42']));
  const ea = await a.exit;
  assert.equal(ea.code, 42);
  assert.equal(ea.signal, null);
  assert.ok(ea.usage && ea.usage.maxRssBytes > 0, 'rusage reported');
  const b = await run(spec('sleep', ['100']));
  assert.equal(os.startTimeOf(b.pid), (await os.recover(), os.startTimeOf(b.pid)));
  os.signal(b.pid, 'SIGUSR1', false);
  assert.deepEqual({ code: (await b.exit).code, signal: (await b.exit).signal }, { code: null, signal: 10 });
});

test('logs: stdout and stderr appended to their files; cwd and env as given', async () => {
  const out = join(paths.root, 'logs', 'deep', 'dir', 'x.out');
  const err = join(paths.root, 'logs', 'deep', 'dir', 'x.err');
  writeFileSync(join(paths.root, 'marker'), '');
  const s = spec('sh', ['-c', 'echo "out $GREETING $(pwd)"; ls marker; echo err >&2'], { stdoutPath: out, stderrPath: err, env: { ...env, GREETING: 'hello' } });
  await (await run(s)).exit;
  await (await run(s)).exit;
  assert.equal(readFileSync(out, 'utf8'), `out hello ${paths.root}\nmarker\n`.repeat(2));
  assert.equal(readFileSync(err, 'utf8'), 'err\nerr\n');
  const both = join(paths.root, 'logs', 'both.log');
  await (await run(spec('sh', ['-c', 'echo 1; echo 2 >&2'], { stdoutPath: both, stderrPath: both }))).exit;
  assert.equal(readFileSync(both, 'utf8'), '1\n2\n');
});

test('a group signal reaches every process of the group; when the leader ends, the rest is killed', async () => {
  const pidFile = join(paths.root, 'child.pid');
  const p = await run(spec(process.execPath, [fixture('forks-child.js'), pidFile]));
  const child = Number(await eventually(() => (existsSync(pidFile) ? readFileSync(pidFile, 'utf8') : null)));
  assert.ok(pidAlive(child));
  os.signal(p.pid, 'SIGTERM', true); // the child ignores SIGTERM: it survives the group signal...
  assert.equal((await p.exit).signal, 15);
  await waitGone(child, '...but not its leader\'s exit (group remnants are killed)');
});

test('an orphaned grandchild in its own session is reparented to the spawner and reaped', async () => {
  const pidFile = join(paths.root, 'grandchild.pid');
  // The grandchild writes its pid once in its own session; the parent exits only after that.
  const script = `setsid sh -c 'echo $$ > ${pidFile}; exec sleep 100' >/dev/null 2>&1 & while [ ! -s ${pidFile} ]; do sleep 0.01; done`;
  const p = await run(spec('sh', ['-c', script]));
  assert.equal((await p.exit).code, 0);
  const grandchild = Number(readFileSync(pidFile, 'utf8'));
  started.push(grandchild);
  assert.equal(parentOf(grandchild), os.spawnerPid, 'the spawner is the child subreaper');
  process.kill(grandchild, 'SIGTERM');
  await eventually(() => !existsSync(`/proc/${grandchild}`), 5000, 'reaped, not left a zombie');
});

test('runToCompletion kills the group at the timeout; capture returns output and never rejects', async () => {
  const hook = await os.runToCompletion(spec('sleep', ['100']), 100);
  assert.equal(hook.timedOut, true);
  assert.equal(hook.signal, 9);
  const probe = await os.capture({ file: 'sh', args: ['-c', 'echo ok; echo warn >&2; exit 3'], cwd: paths.root, env }, 5000);
  assert.deepEqual({ code: probe.code, output: probe.output, timedOut: probe.timedOut }, { code: 3, output: 'ok\nwarn\n', timedOut: false });
  const chatty = await os.capture({ file: 'sh', args: ['-c', 'yes | head -c 100000; exit 0'], cwd: paths.root, env }, 5000);
  assert.equal(chatty.output.length, 512, 'the first CAPTURE_LIMIT bytes are kept, the rest drained');
  assert.equal(chatty.code, 0);
  const missing = await os.capture({ file: 'no-such-probe', args: [], cwd: paths.root, env }, 5000);
  assert.match(missing.error ?? '', /^command not found: no-such-probe/);
});

test('capture: an abort ends the command and its process group at once (an exec probe whose program stopped)', async () => {
  await captureEndsAtAbort(os, paths.root);
});

test('stdinPath: the file is the child\'s fd 0 (read-only); a missing one fails the spawn with the step named', async () => {
  const input = join(paths.root, 'stdin.json');
  writeFileSync(input, '{"event":"process_fatal"}\n');
  const out = join(paths.root, 'logs', 'stdin.out');
  const r = await os.runToCompletion(spec('sh', ['-c', 'cat; echo x >&0 || echo not-writable'], { stdinPath: input, stdoutPath: out, stderrPath: join(paths.root, 'logs', 'stdin.err') }), 5000);
  assert.equal(r.code, 0);
  assert.equal(readFileSync(out, 'utf8'), '{"event":"process_fatal"}\nnot-writable\n');
  const none = await os.runToCompletion(spec('sh', ['-c', 'cat'], { stdinPath: join(paths.root, 'missing.json') }), 5000);
  assert.match(none.error ?? '', /^cannot open stdin file: .*missing\.json/);
  const empty = await os.runToCompletion(spec('sh', ['-c', 'test -z "$(cat)"']), 5000);
  assert.equal(empty.code, 0, 'without stdinPath fd 0 is /dev/null');
});

test('spawn failures read as LinuxOs\'s, with the failing step', async () => {
  await assert.rejects(os.spawn(spec('no-such-program', []), () => undefined), /^Error: command not found: no-such-program \(cwd /);
  await assert.rejects(os.spawn(spec('sh', [], { cwd: join(paths.root, 'missing') }), () => undefined), /cwd .*missing does not exist/);
  await assert.rejects(os.spawn(spec('sh', ['a\0b']), () => undefined), /contains a NUL byte/);
});

test('a script without #! runs with /bin/sh (as Node does); a missing #! interpreter is reported with the exit', async () => {
  const plain = join(paths.root, 'plain-script');
  writeFileSync(plain, 'echo "plain $1"\n', { mode: 0o755 });
  const ran = await os.capture({ file: plain, args: ['arg'], cwd: paths.root, env }, 5000);
  assert.deepEqual([ran.code, ran.output], [0, 'plain arg\n']);
  const broken = join(paths.root, 'broken-interpreter');
  writeFileSync(broken, '#!/nonexistent/interpreter\n', { mode: 0o755 });
  // Forked before exec could fail: spawn() resolves, the exit carries the failure.
  const p = await run(spec(broken, []));
  const exit = await p.exit;
  assert.match(exit.error ?? '', /^command not found: .*broken-interpreter/);
  assert.equal(exit.code, 127);
});

test('a spawn larger than a request may be is refused by itself: the connection, and the exits of running programs, are kept', async () => {
  const running = await run(spec('sleep', ['30']));
  const huge = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`V${i}`, 'x'.repeat(100_000)]));
  await assert.rejects(os.spawn(spec('true', [], { env: { ...env, ...huge } }), () => undefined), (err: Error) => {
    assert.match(err.message, /^command, args and env take \d+ bytes, more than svc-spawner takes in one request \(4194304 bytes; /);
    return true;
  });
  const captured = await os.capture({ file: 'true', args: [], cwd: paths.root, env: { ...env, ...huge } }, 5000);
  assert.match(captured.error ?? '', /more than svc-spawner takes in one request/);
  assert.deepEqual(warnings, [], 'the spawner is not lost');
  process.kill(running.pid, 'SIGTERM');
  assert.equal((await running.exit).signal, 15, 'the real exit of a program running meanwhile');
});

test('uid and gid are switched (as root)', { skip: process.getuid?.() !== 0 ? 'needs root' : false }, async () => {
  const r = await os.capture({ file: 'sh', args: ['-c', 'echo $(id -u):$(id -g):$(id -G)'], cwd: '/', env, uid: 65534, gid: 65534 }, 5000);
  assert.equal(r.output.trim(), '65534:65534:65534', 'supplementary groups dropped too');
  const withGroups = await os.capture({ file: 'sh', args: ['-c', 'echo $(id -u):$(id -g):$(id -G)'], cwd: '/', env, uid: 65534, gid: 65534, groups: [65534, 4242, 4243] }, 5000);
  assert.equal(withGroups.output.trim(), '65534:65534:65534 4242 4243', "the user's supplementary groups, and only those");
});

for (const method of ['clone', 'posix_spawn']) {
  test(`the ${method} method starts programs too, with the same errors`, async () => {
    const p2 = spawnerPaths();
    const other = await SpawnerOs.start({ binary: spawnerBinary(), socketPath: p2.socketPath, logFile: p2.logFile, args: ['--method', method], warn: (m) => warnings.push(m) });
    try {
      const r = await other.capture({ file: 'sh', args: ['-c', `echo via ${method}; exit 5`], cwd: p2.root, env }, 5000);
      assert.deepEqual([r.code, r.output], [5, `via ${method}\n`]);
      const missing = await other.capture({ file: 'no-such-probe', args: [], cwd: p2.root, env }, 5000);
      assert.match(missing.error ?? '', /^command not found: no-such-probe/);
      if (method === 'posix_spawn') {
        const id = await other.capture({ file: 'true', args: [], cwd: p2.root, env, uid: 1 }, 5000);
        assert.match(id.error ?? '', /cannot switch user or group/, 'posix_spawn cannot switch users');
      } else {
        await assert.rejects(other.spawn(spec('sh', [], { cwd: join(p2.root, 'missing') }), () => undefined), /cwd .*missing does not exist/);
        const plain = join(p2.root, 'plain-script');
        writeFileSync(plain, 'echo plain\n', { mode: 0o755 });
        assert.equal((await other.capture({ file: plain, args: [], cwd: p2.root, env }, 5000)).output, 'plain\n');
      }
    } finally {
      const pid = other.spawnerPid;
      await other.close();
      await waitGone(pid);
      assert.equal(sanitizerReports(p2.logFile), '');
      removeRoot(p2.root);
    }
  });
}
