import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startDaemon, removeRoot, tempRoot, eventually, fixture, type RunningDaemon } from '../helpers/daemon.js';
import { runCli } from '../helpers/cli.js';

let d: RunningDaemon;
let root = '';
let svc: (...args: string[]) => ReturnType<typeof runCli>;
const conf = () => join(root, 'conf', 'reactions.toml');

before(async () => {
  root = tempRoot('svc-reactions-cli-');
  mkdirSync(join(root, 'conf'), { recursive: true });
  const script = join(root, 'note.sh');
  writeFileSync(script, `#!/bin/sh\necho "$SVC_EVENT $SVC_PROGRAM_NAME test=$SVC_TEST" >> "${join(root, 'notes.txt')}"\n`);
  chmodSync(script, 0o755);
  writeFileSync(
    conf(),
    `[[reaction]]\nname = "note"\nevents = ["process_fatal"]\nprograms = ["web-*"]\ncommand = ["${script}"]\ncooldown_secs = 60\n\n[[reaction]]\nname = "broken"\nevents = ["process_exit"]\ncommand = ["sh", "-c", "exit 3"]\nenabled = false\n`,
  );
  d = await startDaemon(root);
  svc = (...args) => runCli(args, { SVC_URL: d.url });
});
after(async () => {
  await d.stop();
  removeRoot(root);
});

test('svc reactions list: each reaction with its selector, limits and last run', async () => {
  const list = await svc('reactions', 'list');
  assert.equal(list.code, 0, list.stderr);
  assert.match(list.stdout, /^note\n {2}on: {7}process_fatal of web-\*\n {2}runs: {5}\/\S+note\.sh\n {2}limits: {3}timeout 30 s, max_concurrent 1, cooldown 60 s\n {2}last run: never run\n/);
  assert.match(list.stdout, /\nbroken \(disabled\)\n {2}on: {7}process_exit\n {2}runs: {5}sh -c "exit 3"\n/);
  const json = JSON.parse((await svc('--json', 'reactions')).stdout);
  assert.deepEqual(json.reactions.map((r: { name: string }) => r.name), ['note', 'broken']);
});

test('svc reactions test NAME runs it now (exit 0), a failing one exits 1, an unknown one says so', async () => {
  await svc('add', 'web-1', '--', process.execPath, fixture('forever.js'));
  const ok = await svc('reactions', 'test', 'note', '--program', 'web-1');
  assert.equal(ok.code, 0, ok.stderr);
  assert.match(ok.stdout, /^reaction 'note' exited 0 after [\d.]+ s\n$/);
  assert.equal(readFileSync(join(root, 'notes.txt'), 'utf8'), 'process_fatal web-1 test=1\n');
  const list = await svc('reactions', 'list');
  assert.match(list.stdout, /last run: ok at \S+ \S+ \(test run of web-1\): exited 0/);
  const failed = await svc('reactions', 'test', 'broken');
  assert.equal(failed.code, 1);
  assert.match(failed.stdout, /^reaction 'broken' failed: exit code 3 after/);
  assert.match(failed.stderr, /reaction 'broken' did not succeed \(failed\)/);
  const unknown = await svc('reactions', 'test', 'ghost');
  assert.notEqual(unknown.code, 0);
  assert.match(unknown.stderr, /reaction 'ghost' not found in \S+reactions\.toml/);
});

test('svc reactions list shows a load error with file and line, above the set still in force', async () => {
  writeFileSync(conf(), '[[reaction]]\nname = "x"\nevents = ["process_fatal"]\ncommand = ["/bin/true"]\ntimeout_secs = "soon"\n');
  const list = await eventually(async () => {
    const r = await svc('reactions', 'list');
    return r.stdout.includes('LOAD ERROR') ? r : null;
  }, 5000, 'the load error in the list');
  assert.match(list.stdout, /^LOAD ERROR at .*: the last edit was not applied; the reactions below stay in force\n {2}\S+reactions\.toml:5: reaction\[0\] \(name=x\)\.timeout_secs: must be an integer\n\nnote\n/);
});
