import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixture, useDaemon } from '../helpers/daemon.js';
import { svcAgainst } from '../helpers/cli.js';
import { freePort } from '../helpers/ports.js';

const d = useDaemon();
const svc = svcAgainst(d);
const dir = mkdtempSync(join(tmpdir(), 'svc-wait-'));

test('svc apply --wait: returns once each program of the stack is ready (Healthy, Running for the stable time, done, Scheduled); autostart = false is not waited for', async () => {
  const port = await freePort();
  const file = join(dir, 'ready.toml');
  const node = JSON.stringify(process.execPath);
  writeFileSync(
    file,
    `[[services]]
name = "api"
command = ${node}
args = [${JSON.stringify(fixture('tcp-after.js'))}, "${port}", "300"]
health_check = { type = "tcp", port = ${port}, interval_secs = 1 }

[[services]]
name = "worker"
command = ${node}
args = [${JSON.stringify(fixture('forever.js'))}]

[[services]]
name = "migrate"
command = "sh"
args = ["-c", "sleep 0.2"]
autorestart = "false"

[[services]]
name = "manual"
command = "sleep"
args = ["60"]
autostart = false

[[services]]
name = "nightly"
command = "true"
cron = "0 3 * * *"
`,
  );
  const applied = await svc('apply', file, '--wait', '--wait-stable', '1');
  assert.equal(applied.code, 0, applied.stderr);
  assert.match(applied.stdout, /^\+ created api\n/);
  for (const line of [/^api: Healthy \(after \d+\.\d s\)$/m, /^worker: Running for 1 s/m, /^migrate: exited with code 0/m, /^nightly: Scheduled/m, /^4 programs ready in \d+\.\d s$/m]) assert.match(applied.stdout, line);
  assert.match(applied.stderr, /^note: manual: not waited for: Stopped, and not meant to run/m);

  // Re-applied, everything is ready already: the wait ends at the first look.
  const json = JSON.parse((await svc('--json', 'apply', file, '--wait')).stdout) as { lines: string[]; wait: { ok: boolean; ready: { name: string; secs: number }[]; skipped: { name: string }[] } };
  assert.ok(json.lines.includes('unchanged api'), json.lines.join(','));
  assert.equal(json.wait.ok, true);
  assert.deepEqual(json.wait.ready.map((r) => r.name).sort(), ['api', 'migrate', 'nightly', 'worker']);
  assert.deepEqual(json.wait.skipped.map((s) => s.name), ['manual']);

  assert.equal((await svc('wait', 'api', 'worker')).code, 0);
  await svc('rm', 'api', 'worker', 'migrate', 'manual', 'nightly');
});

test('svc wait: a program that goes Fatal fails the wait at once with its exit and stderr; one crash-looping is named at the timeout; a stopped one is refused', async () => {
  assert.equal((await svc('add', 'doomed', '--no-wait', '--set', 'retry_limit=1', '--set', 'backoff_secs=0', '--', 'sh', '-c', 'echo cannot bind >&2; exit 4')).code, 0);
  const fatal = await svc('wait', 'doomed', '--timeout', '30');
  assert.equal(fatal.code, 1);
  assert.match(fatal.stderr, /^svc: doomed is not ready( after \d+\.\d s)?:\n {2}doomed: crashed: exit code 4, .* after it started; now Fatal\n {4}its last lines of stderr \(svc logs doomed\):\n( {6}cannot bind\n)+$/);

  assert.equal((await svc('add', 'looping', '--no-wait', '--set', 'backoff_secs=60', '--', 'sh', '-c', 'echo nope >&2; exit 5')).code, 0);
  const timedOut = await svc('--json', 'wait', 'looping', '--timeout', '1');
  assert.equal(timedOut.code, 1);
  const out = JSON.parse(timedOut.stdout) as { ok: boolean; timed_out: boolean; failed: { name: string; status: string; warning: string; stderr?: string[] }[] };
  assert.equal(out.ok, false);
  assert.equal(out.timed_out, true);
  assert.deepEqual([out.failed[0]?.name, out.failed[0]?.status], ['looping', 'Backoff']);
  assert.match(out.failed[0]?.warning ?? '', /^crashed: exit code 5, /);
  assert.deepEqual(out.failed[0]?.stderr, ['nope']);

  assert.equal((await svc('add', 'idle', '--no-autostart', '--', 'sleep', '60')).code, 0);
  const stopped = await svc('wait', 'idle');
  assert.equal(stopped.code, 1);
  assert.match(stopped.stderr, /idle: Stopped, and nothing is starting it \(svc start idle\)/);
  await svc('rm', 'doomed', 'looping', 'idle');
});

test('svc wait and svc apply --wait: usage errors name the flag and change nothing', async () => {
  const file = join(dir, 'one.toml');
  writeFileSync(file, '[[services]]\nname = "one"\ncommand = "sleep 60"\n');
  for (const [args, message] of [
    [['wait'], /name a program/],
    [['wait', 'x', '--timeout', 'soon'], /--timeout: 'soon' is not a number of seconds/],
    [['wait', 'x', '--stable', '-1'], /--stable: '-1' is not a number of seconds/],
    [['apply', file, '--wait', '--dry-run'], /--wait: a dry run starts nothing to wait for/],
    [['apply', file, '--wait-timeout', '5'], /--wait-timeout needs --wait/],
    [['apply', file, '--wait', '--wait-timeout', '0'], /--wait-timeout: '0' is not a number of seconds/],
  ] as const) {
    const r = await svc(...args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, message);
  }
  assert.deepEqual(JSON.parse((await svc('--json', 'list')).stdout), [], 'a refused apply --wait applied nothing');
  assert.match((await svc('wait', 'ghost')).stderr, /no program named or with id 'ghost'/);
});
