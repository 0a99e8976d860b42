import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseReactionsFile } from '../../../../controllers/reactions/parse-file.js';

const FILE = '/root/conf/reactions.toml';
const parse = (text: string) => parseReactionsFile(FILE, text, '/root');

test('a full table: keys, defaults, relative cwd under SVC_ROOT', () => {
  const r = parse(`
[[reaction]]
name = "page"
events = ["process_fatal", "health_restart"]
programs = ["web-*"]
command = ["/usr/local/bin/page.sh", "--urgent"]
cwd = "scripts"
timeout_secs = 5
max_concurrent = 2
cooldown_secs = 60
env = { TEAM = "ops" }
enabled = false

[[reaction]]
name = "log-all"
events = ["*"]
command = "echo $SVC_EVENT >> /tmp/all"
shell = true
`);
  assert.ok(r.ok, JSON.stringify(r));
  assert.deepEqual(r.reactions[0], {
    name: 'page', events: ['process_fatal', 'health_restart'], programs: ['web-*'], command: ['/usr/local/bin/page.sh', '--urgent'], shell: false,
    cwd: '/root/scripts', timeoutSecs: 5, maxConcurrent: 2, cooldownSecs: 60, env: { TEAM: 'ops' }, enabled: false,
  });
  assert.deepEqual(r.reactions[1], { name: 'log-all', events: ['*'], programs: null, command: ['echo $SVC_EVENT >> /tmp/all'], shell: true, cwd: '/root', timeoutSecs: 30, maxConcurrent: 1, cooldownSecs: 0, env: {}, enabled: true });
});

test('an empty file is valid: no reactions', () => {
  assert.deepEqual(parse(''), { ok: true, reactions: [] });
});

test('errors name the file, the line and the key; every problem is reported', () => {
  const r = parse(`[[reaction]]
name = "ok"
events = ["process_fatal"]
command = ["/bin/true"]

[[reaction]]
name = "bad"
events = ["process_fatl"]
command = "/bin/echo hi"
timeout_secs = 0
colour = "red"
`);
  assert.ok(!r.ok);
  assert.deepEqual(r.errors, [
    `${FILE}:11: reaction[1] (name=bad).colour: unknown key (one of name, events, programs, command, shell, cwd, timeout_secs, max_concurrent, cooldown_secs, env, enabled)`,
    `${FILE}:8: reaction[1] (name=bad).events: unknown event type "process_fatl" (see docs/events.md)`,
    `${FILE}:9: reaction[1] (name=bad).command: must be an array [path, args...]; set shell = true to run a shell command line`,
    `${FILE}:10: reaction[1] (name=bad).timeout_secs: must be at least 1`,
  ]);
});

test('a glob that cannot be matched is refused at load (it would throw on every event and stop every reaction)', () => {
  const r = parse('[[reaction]]\nname = "x"\nevents = ["*"]\nprograms = ["web-*", "[z-a]*"]\ncommand = ["/bin/true"]\n');
  assert.ok(!r.ok);
  assert.deepEqual(r.errors, [`${FILE}:4: reaction[0] (name=x).programs: invalid glob "[z-a]*": a character class is malformed (a range like [a-z] must go upwards)`]);
  assert.ok(parse('[[reaction]]\nname = "x"\nevents = ["*"]\nprograms = ["[!a-c]?", "web-[0-9]", "a[b"]\ncommand = ["/bin/true"]\n').ok);
});

test('reaction events cannot be subscribed to; names are unique; TOML syntax errors carry line:column', () => {
  const loop = parse('[[reaction]]\nname = "x"\nevents = ["reaction_failed"]\ncommand = ["/bin/true"]\n');
  assert.ok(!loop.ok);
  assert.match(loop.errors[0] ?? '', /:3: reaction\[0\] \(name=x\)\.events: 'reaction_failed' cannot trigger a reaction/);
  const dup = parse('[[reaction]]\nname = "x"\nevents = ["*"]\ncommand = ["/a"]\n[[reaction]]\nname = "x"\nevents = ["*"]\ncommand = ["/b"]\n');
  assert.ok(!dup.ok);
  assert.deepEqual(dup.errors, [`${FILE}:6: reaction[1] (name=x).name: duplicate name 'x'`]);
  const syntax = parse('[[reaction]]\nname = "x\n');
  assert.ok(!syntax.ok);
  assert.match(syntax.errors[0] ?? '', /^\/root\/conf\/reactions\.toml:2:\d+: /);
  const missing = parse('[[reaction]]\nevents = ["*"]\n');
  assert.ok(!missing.ok);
  assert.deepEqual(missing.errors.map((e) => e.replace(/:.*?: reaction\[0\]\./, ':')), ['/root/conf/reactions.toml:name: required: 1 to 64 letters, digits, _ . or -', '/root/conf/reactions.toml:command: required: an array [path, args...] of strings, e.g. ["/usr/local/bin/on-fatal.sh", "--page"]']);
  const top = parse('reactions = 1\n');
  assert.ok(!top.ok);
  assert.deepEqual(top.errors, [`${FILE}:1: unknown key reactions (reactions are [[reaction]] tables)`]);
});

test('env: names checked, SVC_* reserved, values strings', () => {
  const r = parse('[[reaction]]\nname = "x"\nevents = ["*"]\ncommand = ["/a"]\nenv = { SVC_EVENT = "x", "1A" = "y", N = 3 }\n');
  assert.ok(!r.ok);
  assert.equal(r.errors.length, 3);
  assert.ok(r.errors.every((e) => e.startsWith(`${FILE}:5: reaction[0] (name=x).env: `)));
});
