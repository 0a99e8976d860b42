import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync, spawn } from 'node:child_process';
import { startDaemon, removeRoot, fixture, tempRoot, type RunningDaemon } from '../helpers/daemon.js';
import { runCli } from '../helpers/cli.js';

const FOREVER = fixture('forever.js');
const svcToml = (name: string, extra = '') => `[[services]]\nname = "${name}"\ncommand = "${process.execPath}"\nargs = ["${FOREVER}"]\n${extra}`;

let d: RunningDaemon;
let work: string;
let svc: (...args: string[]) => ReturnType<typeof runCli>;
before(async () => {
  d = await startDaemon();
  work = tempRoot('svc-stack-cli-');
  svc = (...args) => runCli(args, { SVC_URL: d.url }, work);
});
after(async () => {
  await d.stop();
  removeRoot(d.root);
  removeRoot(work);
});

test('svc check: good files exit 0; bad files exit 1 with path:line:col messages (no daemon needed)', async () => {
  writeFileSync(join(work, 'good.toml'), svcToml('c-web') + svcToml('c-db'));
  writeFileSync(join(work, 'good.yaml'), 'services:\n  - name: y\n    command: run\n');
  writeFileSync(join(work, 'bad.json'), '{\n  "services": [\n    {"name": "x", "command": "run", "max_concurrent": 99}\n  ]\n}\n');
  writeFileSync(join(work, 'syntax.json'), '{\n  "services": [,]\n}\n');
  writeFileSync(join(work, 'dup.toml'), svcToml('same') + svcToml('same'));
  const ok = await runCli(['check', 'good.toml', 'good.yaml'], { SVC_URL: 'http://127.0.0.1:1' }, work);
  assert.equal(ok.code, 0, ok.stderr);
  assert.match(ok.stdout, /^good\.toml: ok \(2 services\)\ngood\.yaml: ok \(1 service\)\n$/);
  const bad = await runCli(['check', 'good.toml', 'bad.json', 'syntax.json', 'dup.toml'], { SVC_URL: 'http://127.0.0.1:1' }, work);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /^bad\.json:3:37: services\[0\] \(name=x\): max_concurrent: must be <= 64$/m, 'the place of the field, not of its service');
  assert.match(bad.stderr, /^syntax\.json:2:16: /m);
  // At the second `name` line (line 6), not at the second [[services]] header (line 5), as every other field's problem.
  assert.match(bad.stderr, /^dup\.toml:6:1: services\[1\] \(name=same\): name: duplicate of services\[0\]/m);
  assert.match(bad.stderr, /svc: 3 of 4 files invalid/);
});

test('svc check and svc apply: an unknown top-level key starts with path:line:col too, in every format (it read `file: key: unknown field at file:2:1`)', async () => {
  writeFileSync(join(work, 'top.toml'), 'prune = false\nprnue = true\n');
  writeFileSync(join(work, 'top.json'), '{"services": [],\n  "extra": 1}\n');
  writeFileSync(join(work, 'top.yaml'), 'services: []\nextra: 1\n');
  const check = await runCli(['check', 'top.toml', 'top.json', 'top.yaml'], { SVC_URL: 'http://127.0.0.1:1' }, work);
  assert.equal(check.code, 1);
  const why = '(a stack has prune, services, include)';
  assert.equal(check.stderr, `top.toml:2:1: prnue: unknown field ${why}\ntop.json:2:3: extra: unknown field ${why}\ntop.yaml:2:1: extra: unknown field ${why}\nsvc: 3 of 3 files invalid\n`);
  const apply = await svc('apply', 'top.toml');
  assert.equal(apply.code, 2);
  assert.equal(apply.stderr, `svc: top.toml:2:1: prnue: unknown field ${why}\n`);
});

test('svc check and svc apply given a directory say so and how to name its files (they said "unknown format")', async () => {
  mkdirSync(join(work, 'a-dir'), { recursive: true });
  const check = await svc('check', 'a-dir');
  assert.equal(check.code, 1);
  assert.match(check.stderr, /^a-dir: is a directory; name the files in it \(for example a-dir\/\*\.toml\)$/m);
  const apply = await svc('apply', 'a-dir');
  assert.equal(apply.code, 2);
  assert.match(apply.stderr, /^svc: a-dir: is a directory; name the files in it/m);
});

test('svc check follows includes and reports include cycles', async () => {
  mkdirSync(join(work, 'inc'), { recursive: true });
  writeFileSync(join(work, 'main.toml'), 'include = ["inc/a.toml"]\n' + svcToml('m', 'depends_on = ["a"]\n'));
  writeFileSync(join(work, 'inc', 'a.toml'), svcToml('a'));
  assert.equal((await svc('check', 'main.toml')).code, 0);
  writeFileSync(join(work, 'loop.toml'), 'include = ["inc/loop2.toml"]\n');
  writeFileSync(join(work, 'inc', 'loop2.toml'), 'include = ["../loop.toml"]\n');
  const loop = await svc('check', 'loop.toml');
  assert.equal(loop.code, 1);
  assert.match(loop.stderr, /^inc\/loop2\.toml:1:1: include: cycle detected: loop\.toml -> inc\/loop2\.toml -> loop\.toml$/m);
  // A missing include is named at its place in the file that includes it, as every other problem is.
  writeFileSync(join(work, 'gap.toml'), '# shared services\ninclude = ["inc/a.toml", "inc/gone.toml"]\n');
  const gap = await svc('check', 'gap.toml');
  assert.equal(gap.code, 1);
  assert.match(gap.stderr, /^gap\.toml:2:1: include: inc\/gone\.toml: cannot read: ENOENT$/m);
  const apply = await svc('apply', 'gap.toml');
  assert.equal(apply.code, 2);
  assert.match(apply.stderr, /^svc: gap\.toml:2:1: include: inc\/gone\.toml: cannot read: ENOENT$/m);
});

test('svc apply prints the plan as a diff; --dry-run changes nothing; --prune removes', async () => {
  const file = join(work, 'app.toml');
  writeFileSync(file, svcToml('e-web') + svcToml('e-db') + svcToml('e-old'));
  const first = await svc('apply', 'app.toml');
  assert.equal(first.code, 0, first.stderr);
  assert.equal(first.stdout, '+ created e-web\n+ created e-db\n+ created e-old\n');
  writeFileSync(file, svcToml('e-web', 'env = { V = "2" }\n') + svcToml('e-db'));
  const dry = await svc('apply', 'app.toml', '--prune', '--dry-run');
  assert.match(dry.stdout, /^~ updated e-web \(restart\)\n= unchanged e-db\n- pruned e-old\n\(dry run: nothing was changed; --plan [0-9a-f]{16} applies exactly this plan\)\n$/);
  const real = await svc('apply', 'app.toml', '--prune');
  assert.equal(real.stdout, '~ updated e-web (restart)\n= unchanged e-db\n- pruned e-old\n');
  const info = await svc('info', 'e-web');
  assert.match(info.stdout, /source = "stack:app\.toml"/);
  const bad = join(work, 'bad.toml');
  writeFileSync(bad, '[[services]]\nname = "z"\ncommand = \n');
  const err = await svc('apply', 'bad.toml');
  assert.equal(err.code, 2, 'an invalid input file is a usage-class error (docs/cli.md)');
  assert.match(err.stderr, /^svc: bad\.toml:3:\d+: /);
});

test('svc apply reads its file once: a stack from a named pipe (a generator writing to a FIFO) applies', async () => {
  const fifo = join(work, 'piped.toml');
  execFileSync('mkfifo', [fifo]);
  // The writer opens the FIFO, writes the stack once and closes it: a second read of the file
  // would wait for a writer that never comes.
  const writer = spawn('sh', ['-c', `cat > '${fifo}'`], { stdio: ['pipe', 'ignore', 'ignore'] });
  writer.stdin.end(svcToml('fifo-web'));
  // Should svc open the pipe again, an empty writer lets that read end (with no text) rather than hang the test.
  const release = setTimeout(() => spawn('sh', ['-c', `: > '${fifo}'`], { stdio: 'ignore' }), 20_000);
  try {
    const applied = await svc('apply', 'piped.toml', '--dry-run');
    assert.equal(applied.code, 0, applied.stderr);
    assert.match(applied.stdout, /^\+ created fifo-web\n\(dry run: nothing was changed; --plan [0-9a-f]{16} applies exactly this plan\)\n$/);
  } finally {
    clearTimeout(release);
    if (writer.exitCode === null && writer.pid) process.kill(writer.pid, 'SIGKILL');
  }
});

test('svc apply --plan ID applies the plan a dry run showed, and refuses (exit 1, nothing changed) once a program it names changed', async () => {
  writeFileSync(join(work, 'planned.toml'), svcToml('p-web') + svcToml('p-db', 'priority = 2\n'));
  const planOf = (stdout: string) => /--plan ([0-9a-f]{16}) applies exactly this plan/.exec(stdout)?.[1] ?? assert.fail(stdout);
  const dry = await svc('apply', 'planned.toml', '--dry-run');
  assert.equal(dry.code, 0, dry.stderr);
  const plan = planOf(dry.stdout);
  // Between the review and the deploy, someone adds p-db by hand: the reviewed plan created it.
  assert.equal((await svc('add', 'p-db', '--no-autostart', '--', process.execPath, FOREVER)).code, 0);
  const stale = await svc('apply', 'planned.toml', '--plan', plan);
  assert.equal(stale.code, 1);
  assert.match(stale.stderr, /plan: the plan is [0-9a-f]{16} now, not [0-9a-f]{16} \(the stack or a program it names changed since that dry run\); nothing was changed/);
  assert.equal((await svc('info', 'p-web')).code, 1, 'p-web was not created');
  const again = await svc('apply', 'planned.toml', '--dry-run');
  assert.match(again.stdout, /^\+ created p-web\n~ updated p-db\n/);
  const applied = await svc('apply', 'planned.toml', '--plan', planOf(again.stdout));
  assert.equal(applied.code, 0, applied.stderr);
  assert.equal(applied.stdout, '+ created p-web\n~ updated p-db\n');
  const bad = await svc('apply', 'planned.toml', '--plan', 'latest');
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--plan: 'latest' is not a plan id \(16 hex digits, as svc apply --dry-run prints it\)/);
});

test('svc apply resolves includes locally (sources include:<file>)', async () => {
  const res = await svc('apply', 'main.toml');
  assert.equal(res.code, 0, res.stderr);
  assert.equal(res.stdout, '+ created a\n+ created m\n');
  assert.match((await svc('info', 'a')).stdout, /source = "include:inc\/a\.toml"/);
});

test('svc apply --prune: the programs of an included file that lists no service now are pruned', async () => {
  mkdirSync(join(work, 'emptied'), { recursive: true });
  writeFileSync(join(work, 'emptied', 'top.toml'), `include = ["lib.toml"]\n${svcToml('e-top')}`);
  writeFileSync(join(work, 'emptied', 'lib.toml'), svcToml('e-lib'));
  assert.equal((await svc('apply', 'emptied/top.toml', '--prune')).stdout, '+ created e-lib\n+ created e-top\n');
  writeFileSync(join(work, 'emptied', 'lib.toml'), 'services = []\n');
  const res = await svc('apply', 'emptied/top.toml', '--prune');
  assert.equal(res.code, 0, res.stderr);
  assert.equal(res.stdout, '= unchanged e-top\n- pruned e-lib\n');
  const bad = await fetch(`${d.url}/api/v1/stack?source=stack:x&include=`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"services": []}' });
  assert.equal(bad.status, 400);
  assert.match(((await bad.json()) as { message: string }).message, /^include: each must be a file path/);
});

test('svc export writes a stack that re-applies to no change, in each format', async () => {
  await svc('add', 'e-cli', '--no-autostart', '--', process.execPath, FOREVER);
  for (const format of ['toml', 'json', 'yaml']) {
    const out = join(work, `export.${format}`);
    const res = await svc('export', '--format', format, '-o', out);
    assert.equal(res.code, 0, res.stderr);
    assert.match(readFileSync(out, 'utf8'), /e-cli/);
    const again = await svc('apply', `export.${format}`);
    assert.equal(again.code, 0, again.stderr);
    const lines = again.stdout.trim().split('\n');
    assert.ok(lines.length >= 5 && lines.every((l) => l.startsWith('= unchanged ')), again.stdout);
  }
  const stdout = await svc('export');
  assert.match(stdout.stdout, /^prune = false\n\n\[\[services\]\]\n/);
  // Applied with --prune, an export's own source labels keep its programs out of the prune: said first.
  const pruned = await svc('apply', 'export.toml', '--prune', '--dry-run');
  assert.equal(pruned.code, 0, pruned.stderr);
  assert.match(pruned.stderr, /^warning: \d+ services set their own source: e-db \(stack:app\.toml\), .* and \d+ more; the prune removes only programs labelled stack:export\.toml, so these stay when edited out of the file/m);
  assert.equal((await svc('apply', 'export.toml', '--dry-run')).stderr, '', 'without a prune there is nothing to warn about');
});

test('svc apply: what only svcd can judge (depends_on on a program that does not exist) is reported at its place in the file, an included file too', async () => {
  mkdirSync(join(work, 'where', 'lib'), { recursive: true });
  writeFileSync(join(work, 'where', 'top.toml'), `${svcToml('w-top')}\n[[services]]\nname = "w-dep"\ncommand = "run"\ndepends_on = ["w-nowhere"]\n`);
  const top = await svc('apply', join('where', 'top.toml'));
  assert.equal(top.code, 1);
  assert.match(top.stderr, /^svc: where\/top\.toml:9:1: services\[1\] \(name=w-dep\): depends_on: unknown service\(s\): w-nowhere$/m);
  writeFileSync(join(work, 'where', 'lib', 'more.yaml'), 'services:\n  - name: w-lib\n    command: run\n    depends_on: [w-nowhere]\n');
  writeFileSync(join(work, 'where', 'inc.toml'), `include = ["lib/more.yaml"]\n${svcToml('w-inc')}`);
  const inc = await svc('apply', join('where', 'inc.toml'));
  assert.equal(inc.code, 1);
  assert.match(inc.stderr, /^svc: lib\/more\.yaml:4:5: services\[0\] \(name=w-lib\): depends_on: unknown service\(s\): w-nowhere$/m);
  assert.doesNotMatch((await svc('list')).stdout, /w-/, 'nothing applied');
});
