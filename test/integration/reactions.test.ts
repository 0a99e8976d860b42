import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually, fixture, pidAlive, removeRoot, startDaemon, tempRoot, TIME_SCALE, type RunningDaemon } from '../helpers/daemon.js';

let d: RunningDaemon;
let root = '';
const out = (name: string) => join(root, 'out', name);
const conf = () => join(root, 'conf', 'reactions.toml');

/** An executable script under the root. */
function script(name: string, body: string): string {
  const path = join(root, 'scripts', name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

const read = (path: string) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
};

before(async () => {
  root = tempRoot('svc-reactions-');
  mkdirSync(join(root, 'scripts'), { recursive: true });
  mkdirSync(join(root, 'out'), { recursive: true });
  mkdirSync(join(root, 'conf'), { recursive: true });
  script('on-fatal.sh', `env | grep '^SVC_' | sort > "${out('env.txt')}"\ncat > "${out('stdin.json')}"\necho "marker for $SVC_PROGRAM_NAME"\ntouch "${out('fatal.marker')}"`);
  const hang = script('hang.sh', `sleep 300 &\necho $! > "${out('hang-child.pid')}"\necho $$ > "${out('hang.pid')}"\nwait`);
  const fails = script('fails.sh', 'echo "about to fail" >&2\nexit 7');
  writeFileSync(
    conf(),
    `# reactions for the integration test
[[reaction]]
name = "on-fatal"
events = ["process_fatal"]
programs = ["crash*"]
command = ["scripts/on-fatal.sh"] # relative to cwd (SVC_ROOT), as in docs/reactions.md
timeout_secs = 10

[[reaction]]
name = "hang"
events = ["system_shutdown"]
command = ["${hang}"]
timeout_secs = 1

[[reaction]]
name = "fails"
events = ["process_started"]
programs = ["flaky"]
command = ["${fails}"]
`,
  );
  d = await startDaemon(root);
});

after(async () => {
  await d.stop();
  removeRoot(root);
});

const events = async (type: string) => (await d.request('GET', `/api/v1/events?event_type=${type}`)).body as { program_id: string | null; program_name: string | null; exit_code: number | null; signal: number | null; msg: string }[];
const reactions = async () => (await d.request('GET', '/api/v1/system/reactions')).body;

test('a real script runs on process_fatal with the event in its environment and as JSON on stdin', async () => {
  const created = await d.request('POST', '/api/v1/programs', { name: 'crasher', command: process.execPath, args: [fixture('exit-with.js'), '3'], retry_limit: 1, backoff_secs: 0.05 });
  assert.equal(created.status, 201);
  const id = created.body.id as string;
  await eventually(() => existsSync(out('fatal.marker')), 15_000, 'the marker file');
  const fatal = await eventually(async () => (await events('process_fatal'))[0], 5000, 'process_fatal recorded');
  const env = Object.fromEntries((read(out('env.txt')) ?? '').trim().split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
  assert.equal(env.SVC_EVENT, 'process_fatal');
  assert.equal(env.SVC_PROGRAM_ID, id);
  assert.equal(env.SVC_PROGRAM_NAME, 'crasher');
  assert.equal(env.SVC_EXIT_CODE, '3');
  assert.equal(env.SVC_RETRY_COUNT, '1');
  assert.equal(env.SVC_SIGNAL, '');
  assert.equal(env.SVC_REACTION, 'on-fatal');
  assert.equal(env.SVC_ROOT, root);
  const stdin = JSON.parse(read(out('stdin.json')) ?? '{}');
  assert.equal(stdin.event, 'process_fatal');
  assert.equal(stdin.program_id, id);
  assert.equal(stdin.id, env.SVC_EVENT_ID);
  assert.equal(stdin.msg, fatal.msg);
  // Recorded in the program's history, and the output is in the reaction's log.
  const finished = await eventually(async () => (await d.request('GET', `/api/v1/programs/${id}/events?event_type=reaction_finished`)).body[0], 5000, 'reaction_finished');
  assert.match(finished.msg, /^reaction 'on-fatal' exited 0 after [\d.]+ s$/);
  assert.equal((await d.request('GET', `/api/v1/programs/${id}/events?event_type=reaction_started`)).body.length, 1);
  assert.match(read(join(root, 'logs', 'reactions', 'on-fatal.log')) ?? '', /marker for crasher/);
  const view = (await reactions()).reactions.find((r: { name: string }) => r.name === 'on-fatal');
  assert.equal(view.last_run.outcome, 'ok');
  assert.equal(view.last_run.program_name, 'crasher');
  const metrics = await (await fetch(`${d.url}/metrics`)).text();
  assert.match(metrics, /svc_reaction_runs_total\{reaction="on-fatal",outcome="ok"\} 1/);
});

test('a failing reaction is recorded as reaction_failed with its exit code', async () => {
  const created = await d.request('POST', '/api/v1/programs', { name: 'flaky', command: process.execPath, args: [fixture('forever.js')] });
  const id = created.body.id as string;
  const failed = await eventually(async () => (await d.request('GET', `/api/v1/programs/${id}/events?event_type=reaction_failed`)).body[0], 10_000, 'reaction_failed');
  assert.equal(failed.exit_code, 7);
  assert.equal(failed.program_name, 'flaky');
  assert.match(failed.msg, /^reaction 'fails' failed: exit code 7 after/);
  assert.match(read(join(root, 'logs', 'reactions', 'fails.log')) ?? '', /about to fail/);
  const metrics = await (await fetch(`${d.url}/metrics`)).text();
  assert.match(metrics, /svc_reaction_runs_total\{reaction="fails",outcome="failed"\} 1/);
  await d.request('DELETE', `/api/v1/programs/${id}`);
});

test('a hanging script is killed at its timeout, its whole process group with it (test run)', async () => {
  const t0 = Date.now();
  const res = await d.request('POST', '/api/v1/system/reactions/hang/test');
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.outcome, 'timeout');
  assert.equal(res.body.signal, 9);
  assert.equal(res.body.test, true);
  // The script sleeps 300 s: any bound far below that proves the kill, without failing a slow machine.
  assert.ok(Date.now() - t0 < 60_000, `killed near timeout_secs = 1, not after the sleep (${Date.now() - t0} ms)`);
  const leader = Number(read(out('hang.pid')));
  const child = Number(read(out('hang-child.pid')));
  await eventually(() => !pidAlive(leader) && !pidAlive(child), 5000, 'the script and its child gone');
  // The history writer flushes in the background: the record is there within milliseconds.
  const failed = await eventually(async () => (await events('reaction_failed')).find((e) => e.msg.startsWith("reaction 'hang' (test run)")), 5000, 'reaction_failed recorded');
  assert.match(failed.msg, /killed after timeout_secs 1/);
  assert.equal(failed.program_id, null);
});

test('test runs: unknown reaction 404, bad body 400, unknown program 400', async () => {
  assert.equal((await d.request('POST', '/api/v1/system/reactions/nope/test')).status, 404);
  const bad = await d.request('POST', '/api/v1/system/reactions/on-fatal/test', { colour: 1 });
  assert.equal(bad.status, 400);
  assert.match(bad.body.message, /^colour: unknown field/);
  const missing = await d.request('POST', '/api/v1/system/reactions/on-fatal/test', { program: 'ghost' });
  assert.equal(missing.status, 400);
  assert.match(missing.body.message, /^program: no program named 'ghost'/);
});

test('hot reload: an edit applies within a second or two; an invalid edit keeps the last good set and says why', async () => {
  const before = await reactions();
  assert.deepEqual(before.reactions.map((r: { name: string }) => r.name), ['on-fatal', 'hang', 'fails']);
  const good = read(conf()) ?? '';
  writeFileSync(conf(), `${good}\n[[reaction]]\nname = "added"\nevents = ["cron_exit"]\ncommand = ["/bin/true"]\n`);
  const t0 = Date.now();
  await eventually(async () => (await reactions()).reactions.some((r: { name: string }) => r.name === 'added'), 5000, 'the added reaction');
  // A second or two on an idle machine; nothing polls slowly behind the watch, so a loaded one only needs a wider bound.
  assert.ok(Date.now() - t0 < 3000 * TIME_SCALE, `applied after ${Date.now() - t0} ms`);
  writeFileSync(conf(), `${good}\n[[reaction]]\nname = "broken"\nevents = ["process_fatl"]\ncommand = ["/bin/true"]\n`);
  const broken = await eventually(async () => {
    const s = await reactions();
    return s.load_error ? s : null;
  }, 5000, 'the load error');
  const lines = good.split('\n').length;
  assert.deepEqual(broken.load_error.errors, [`${conf()}:${lines + 3}: reaction[3] (name=broken).events: unknown event type "process_fatl" (see docs/events.md)`]);
  assert.deepEqual(broken.reactions.map((r: { name: string }) => r.name), ['on-fatal', 'hang', 'fails', 'added'], 'the last good set stays');
  assert.ok(d.stderr.some((l) => l.includes('reactions file is invalid') && l.includes('process_fatl')), 'logged');
  assert.match(await (await fetch(`${d.url}/metrics`)).text(), /svc_reactions_load_error 1/);
  writeFileSync(conf(), good);
  await eventually(async () => {
    const s = await reactions();
    return s.load_error === null && s.reactions.length === 3;
  }, 5000, 'the fixed file');
});

test('with Node\'s child_process instead of the spawner (SVC_SPAWNER=off) a run gets the same env and stdin', async () => {
  const other = tempRoot('svc-reactions-cp-');
  mkdirSync(join(other, 'conf'), { recursive: true });
  writeFileSync(join(other, 'conf', 'reactions.toml'), `[[reaction]]\nname = "cp"\nevents = ["process_exit"]\ncommand = "echo \\"$SVC_EVENT $SVC_TEST\\"; cat"\nshell = true\n`);
  const cp = await startDaemon(other, { env: { SVC_SPAWNER: 'off' } });
  try {
    const res = await cp.request('POST', '/api/v1/system/reactions/cp/test');
    assert.equal(res.body.outcome, 'ok', JSON.stringify(res.body));
    const log = readFileSync(join(other, 'logs', 'reactions', 'cp.log'), 'utf8');
    assert.match(log, /^--- \S+ reaction 'cp' \(test run\) for process_exit \(event test-\d+-\d+\) ---\nprocess_exit 1\n\{"id":"test-/);
    assert.equal(JSON.parse(log.split('\n')[2] ?? '').event, 'process_exit');
  } finally {
    await cp.stop();
    removeRoot(other);
  }
});

/** A root of its own whose one reaction runs the shell `command` at system_startup (timeout 600 s); `marker` is a file path in it. */
function rootWithStartupReaction(prefix: string, command: (marker: string) => string): { root: string; marker: string } {
  const root = tempRoot(prefix);
  const marker = join(root, 'run.pid');
  mkdirSync(join(root, 'conf'), { recursive: true });
  writeFileSync(join(root, 'conf', 'reactions.toml'), `[[reaction]]\nname = "on-startup"\nevents = ["system_startup"]\ncommand = "${command(marker)}"\nshell = true\ntimeout_secs = 600\n`);
  return { root, marker };
}

test('a run for a system event that a crashed svcd left behind is ended by the next svcd', async () => {
  // Only the first svcd's run hangs (its timeout is svcd's to enforce, and that svcd is gone).
  const { root: other, marker: first } = rootWithStartupReaction('svc-reactions-orphan-', (m) => `if [ ! -e '${m}' ]; then echo $$ > '${m}'; exec sleep 300; fi`);
  let daemon = await startDaemon(other);
  let pid = 0;
  try {
    pid = await eventually(() => Number(read(first)) || null, 10_000, 'the first run started');
    await daemon.crash();
    assert.ok(pidAlive(pid), 'the run outlives the crashed svcd');
    daemon = await startDaemon(other);
    await eventually(() => !pidAlive(pid), 10_000, 'the left-behind run ended by the next svcd');
    assert.ok(daemon.stderr.some((l) => l.includes('ending a process left by a previous daemon') && l.includes(`"pid":${pid}`)), 'logged');
    // Its stdin file (run/reactions/) goes too; the new svcd's own run removed its own.
    await eventually(() => readdirSync(join(other, 'run', 'reactions')).length === 0, 10_000, 'no stdin file left in run/reactions');
  } finally {
    if (pid && pidAlive(pid)) process.kill(-pid, 'SIGKILL');
    await daemon.stop();
    removeRoot(other);
  }
});

test('a run still going when svcd stops gracefully is killed after the 5 s wait, not left to run on with no timeout', async () => {
  const { root: other, marker } = rootWithStartupReaction('svc-reactions-stop-', (m) => `echo $$ > '${m}'; exec sleep 300`);
  const daemon = await startDaemon(other);
  let pid = 0;
  try {
    pid = await eventually(() => Number(read(marker)) || null, 10_000, 'the run started');
    await daemon.stop();
    assert.equal(pidAlive(pid), false, 'the run outlived the stopped svcd');
    assert.ok(daemon.stderr.some((l) => l.includes('reaction runs still in flight 5 s after svcd began to stop were killed')), 'logged');
  } finally {
    if (pid && pidAlive(pid)) process.kill(-pid, 'SIGKILL');
    removeRoot(other);
  }
});
