import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { startDaemon, removeRoot, fixture, tempRoot, eventually, SVC, type RunningDaemon } from '../helpers/daemon.js';
import { runCli } from '../helpers/cli.js';
import { needSystemdAnalyze, verifyUnits } from '../helpers/systemd-analyze.js';

const FOREVER = fixture('forever.js');

let d: RunningDaemon;
let work: string;
let svc: (...args: string[]) => ReturnType<typeof runCli>;
before(async () => {
  d = await startDaemon();
  work = tempRoot('svc-migrate-cli-');
  svc = (...args) => runCli(args, { SVC_URL: d.url }, work);
  writeFileSync(join(work, 'Procfile'), `web: ${process.execPath} ${FOREVER}\nworker: ${process.execPath} ${FOREVER} --queue default\n`);
  writeFileSync(join(work, '.env'), 'GREETING=hello\n');
});
after(async () => {
  await d.stop();
  removeRoot(d.root);
  removeRoot(work);
});

test('svc import --apply: the same stack apply as svc apply (plan lines, source import:<format>, re-import unchanged)', async () => {
  const first = await svc('import', 'procfile', 'Procfile', '--apply');
  assert.equal(first.code, 0, first.stderr);
  assert.equal(first.stdout, '+ created web\n+ created worker\n');
  assert.match(first.stderr, /^imported 2 programs from Procfile: 0 fields not mapped, 0 approximated$/m);
  assert.match((await svc('info', 'web')).stdout, /source = "import:procfile"/);
  await eventually(async () => ((await svc('list')).stdout.match(/Running/g) ?? []).length === 2, 10_000, 'both imported programs running');
  const again = await svc('import', 'procfile', 'Procfile', '--apply');
  assert.equal(again.stdout, '= unchanged web\n= unchanged worker\n');
  writeFileSync(join(work, 'Procfile.next'), `web: ${process.execPath} ${FOREVER}\n`);
  const dry = await svc('import', 'procfile', 'Procfile.next', '--apply', '--prune', '--dry-run', '--env-file', '.env');
  assert.equal(dry.code, 0, dry.stderr);
  assert.equal(dry.stdout, '= unchanged web\n- pruned worker\n(dry run: nothing was changed)\n');
  assert.match((await svc('list')).stdout, /\nworker\s+Running/);
});

test('round trip: svc export --format stack of the imported programs re-applies to no change and equals the import', async () => {
  const imported = JSON.parse((await svc('--json', 'import', 'procfile', 'Procfile')).stdout) as { services: unknown[] };
  const res = await svc('export', '--format', 'stack', 'web', 'worker', '-o', 'exported.toml');
  assert.equal(res.code, 0, res.stderr);
  const exported = parseToml(readFileSync(join(work, 'exported.toml'), 'utf8')) as { services: unknown[] };
  assert.deepEqual(JSON.parse(JSON.stringify(exported.services)), imported.services);
  const apply = await svc('apply', 'exported.toml');
  assert.equal(apply.stdout, '= unchanged web\n= unchanged worker\n');
  const missing = await svc('export', 'web', 'nosuch');
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /no program named 'nosuch'/);
  // --json: the stack as JSON on stdout, as every command prints its data with --json.
  const json = await svc('--json', 'export', 'web', 'worker');
  assert.equal(json.code, 0, json.stderr);
  assert.deepEqual((JSON.parse(json.stdout) as { services: unknown[] }).services, imported.services);
});

test('svc export --format systemd writes units that systemd-analyze verify accepts; --self too', async (t) => {
  const res = await svc('export', '--format', 'systemd', '-o', 'units');
  assert.equal(res.code, 0, res.stderr);
  assert.deepEqual(readdirSync(join(work, 'units')).sort(), ['web.service', 'worker.service']);
  const web = readFileSync(join(work, 'units', 'web.service'), 'utf8');
  assert.match(web, new RegExp(`^ExecStart=${process.execPath.replace(/[/.]/g, '\\$&')} ${FOREVER.replace(/[/.]/g, '\\$&')}$`, 'm'));
  assert.match(web, /^EnvironmentFile=.*\/\.env$/m);
  const self = await svc('export', '--format', 'systemd', '--self', '--root', '/srv/svc');
  assert.equal(self.code, 0, self.stderr);
  assert.match(self.stdout, /^KillMode=process$/m);
  if (!needSystemdAnalyze(t)) return;
  const units = readdirSync(join(work, 'units')).map((name) => ({ name, content: readFileSync(join(work, 'units', name), 'utf8') }));
  assert.deepEqual(verifyUnits([...units, { name: 'svcd.service', content: self.stdout }]).problems, []);
});

test('svc export --format nomad writes the HCL and JSON job specifications', async () => {
  const res = await svc('export', '--format', 'nomad', '--job', 'shop', '-o', 'nomad');
  assert.equal(res.code, 0, res.stderr);
  assert.deepEqual(readdirSync(join(work, 'nomad')).sort(), ['shop.nomad.hcl', 'shop.nomad.json']);
  const job = (JSON.parse(readFileSync(join(work, 'nomad', 'shop.nomad.json'), 'utf8')) as { Job: { TaskGroups: { Name: string }[] } }).Job;
  assert.deepEqual(job.TaskGroups.map((g) => g.Name), ['web', 'worker']);
  assert.match(res.stderr, /web: env_file: not expressible/);
  const hcl = await svc('export', '--format', 'nomad', 'web');
  assert.match(hcl.stdout, /^job "svc" \{$/m);
});

test('svc import: stack on stdout (TOML) or -o in the file’s syntax; the report on stderr; errors with the format’s position', async () => {
  const pm2 = fixture('import/pm2/ecosystem.json');
  const toml = await svc('import', 'pm2', pm2);
  assert.equal(toml.code, 0, toml.stderr);
  assert.match(toml.stdout, /^# svc stack imported from .*ecosystem\.json \(pm2\)/);
  assert.match(toml.stdout, /\n\[\[services\]\]\nname = "web"\n/);
  assert.match(toml.stderr, /ecosystem\.json:11: web: time: not mapped: /);
  const yaml = await svc('import', 'pm2', pm2, '-o', 'pm2.yaml');
  assert.equal(yaml.stdout, '');
  assert.match(readFileSync(join(work, 'pm2.yaml'), 'utf8'), /\nservices:\n {2}- name: web\n/);
  assert.equal((await svc('check', 'pm2.yaml')).code, 0);
  const strict = await svc('import', 'pm2', pm2, '--strict', '-o', 'strict.toml');
  assert.equal(strict.code, 1);
  assert.match(strict.stderr, /svc: 1 field not mapped \(--strict\)/);
  assert.equal(existsSync(join(work, 'strict.toml')), false);
  writeFileSync(join(work, 'bad.conf'), '[program:x]\ncommand=run\nnot an option\n');
  const bad = await svc('import', 'supervisord', 'bad.conf');
  assert.equal(bad.code, 2);
  assert.equal(bad.stderr, "svc: bad.conf:3: parsing error: 'not an option' (expected key = value, or a [section])\n");
  const unknown = await svc('import', 'nginx', 'x.conf');
  assert.equal(unknown.code, 2); // an invalid choice is a usage error (docs/cli.md)
  assert.match(unknown.stderr, /Allowed choices are pm2, supervisord, process-compose, procfile/);
});

test('svc import --apply --dry-run of a PM2 ecosystem shows the plan and creates nothing; log paths outside log_dir need --no-logs', async () => {
  const eco = fixture('import/pm2/ecosystem.config.js');
  const refused = await svc('import', 'pm2', eco, '--env', 'production', '--apply', '--dry-run');
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /stdout_logfile: must resolve under storage\.log_dir .*\n\(the source's log files are outside svcd's log_dir: import with --no-logs, or set \[storage\] log_dir\)/);
  const res = await svc('import', 'pm2', eco, '--env', 'production', '--apply', '--dry-run', '--no-logs');
  assert.equal(res.code, 0, res.stderr);
  assert.match(res.stderr, /--no-logs: log file paths of api-0, api-1 left out/);
  // worker exists (the Procfile import above): the import would take it over, as any stack does.
  assert.equal(res.stdout, '+ created api-0\n+ created api-1\n~ updated worker (restart)\n+ created nightly-report\n+ created legacy-api\n(dry run: nothing was changed)\n');
  assert.doesNotMatch((await svc('list')).stdout, /api-0/);
});

test('svc completion: scripts for bash, zsh and fish; program names come from the running daemon', async () => {
  for (const shell of ['bash', 'zsh', 'fish']) {
    const res = await svc('completion', shell);
    assert.equal(res.code, 0);
    assert.match(res.stdout, /svc __complete --/);
  }
  const names = await svc('__complete', '--', 'restart', '');
  assert.equal(names.stdout, 'web\nworker\n:done\n');
  const offline = await runCli(['__complete', '--', 'restart', ''], { SVC_URL: 'http://127.0.0.1:1' });
  assert.equal(offline.stdout, ':done\n');
  // The real bash, with the generated script, completing a program name.
  const bin = join(work, 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'svc'), `#!/bin/sh\nexec "${process.execPath}" "${SVC}" "$@"\n`);
  chmodSync(join(bin, 'svc'), 0o755);
  const script = (await svc('completion', 'bash')).stdout;
  writeFileSync(join(work, 'svc.bash'), script);
  const run = spawnSync('bash', ['-c', 'source ./svc.bash; COMP_WORDS=(svc stop w); COMP_CWORD=2; _svc_complete; printf "%s\\n" "${COMPREPLY[@]}"'], {
    cwd: work,
    encoding: 'utf8',
    env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}`, SVC_URL: d.url },
  });
  assert.equal(run.stdout, 'web\nworker\n', run.stderr);
});

/** zsh and fish (Debian packages of the same names, scripts/install-system-deps.sh): required under CI. */
function needShell(t: { skip: (why: string) => void }, shell: string): boolean {
  if (spawnSync(shell, ['-c', 'true'], { stdio: 'ignore' }).status === 0) return true;
  if (process.env.CI) assert.fail(`${shell} is required under CI: run scripts/install-system-deps.sh`);
  t.skip(`${shell} not installed: run scripts/install-system-deps.sh (or apt-get install ${shell})`);
  return false;
}

test('the zsh and fish scripts complete commands, flags and program names in the real shells', async (t) => {
  const bin = join(work, 'bin');
  const env = { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}`, SVC_URL: d.url };
  if (needShell(t, 'fish')) {
    writeFileSync(join(work, 'svc.fish'), (await svc('completion', 'fish')).stdout);
    const fish = (line: string) => spawnSync('fish', ['-c', `source ./svc.fish; complete -C"${line}"`], { cwd: work, encoding: 'utf8', env }).stdout;
    assert.equal(fish('svc imp'), 'import\n');
    assert.equal(fish('svc stop w'), 'web\nworker\n');
    assert.match(fish('svc export --form'), /^--format\n/);
    assert.equal(fish('svc export --format n'), 'nomad\n');
  }
  if (needShell(t, 'zsh')) {
    // compadd and _files are zsh's completion system; stand-ins print what they were given.
    writeFileSync(join(work, 'svc.zsh'), (await svc('completion', 'zsh')).stdout);
    const zsh = (words: string) =>
      spawnSync('zsh', ['-c', `compdef() {}; compadd() { while [[ $1 != -- ]]; do shift; done; shift; print -l -- "$@"; }; _files() { print FILES; }; source ./svc.zsh; words=(${words}); CURRENT=\${#words}; _svc`], { cwd: work, encoding: 'utf8', env }).stdout;
    assert.equal(zsh("svc restart ''"), 'web\nworker\n');
    assert.equal(zsh("svc signal ''"), 'hup\nint\nterm\nkill\nquit\nusr1\nusr2\n');
    assert.equal(zsh("svc check ''"), 'FILES\n');
    assert.match(zsh("svc ''"), /^list\nls\ninfo\n/);
  }
});
