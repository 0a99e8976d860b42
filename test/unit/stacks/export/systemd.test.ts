import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exportSystemd } from '../../../../stacks/export/systemd/index.js';
import { svcdUnit } from '../../../../stacks/export/systemd/self-unit.js';
import { formatExportFinding } from '../../../../stacks/export/types.js';
import { importFile } from '../../../../stacks/import/run.js';
import type { ImportFormat } from '../../../../stacks/import/types.js';
import { fixturePorts, virtualDir } from '../import/ports.js';
import { EXPORT_CTX, EXPORT_FIXTURES, exportStack } from './stack-fixture.js';
import { needSystemdAnalyze, verifyUnits } from '../../../helpers/systemd-analyze.js';

const GOLDEN = join(EXPORT_FIXTURES, 'systemd');

test('systemd: the units of the export fixture match the golden files, and the report lists what systemd cannot express', () => {
  const result = exportSystemd(exportStack(), EXPORT_CTX, { prefix: '' });
  const report = `${result.report.map(formatExportFinding).join('\n')}\n`;
  if (process.env.SVC_UPDATE_GOLDEN) {
    rmSync(GOLDEN, { recursive: true, force: true });
    mkdirSync(GOLDEN, { recursive: true });
    for (const f of result.files) writeFileSync(join(GOLDEN, f.name), f.content);
    writeFileSync(join(GOLDEN, 'report.txt'), report);
  }
  assert.deepEqual(result.files.map((f) => f.name).sort(), readdirSync(GOLDEN).filter((n) => n !== 'report.txt').sort());
  for (const f of result.files) assert.equal(f.content, readFileSync(join(GOLDEN, f.name), 'utf8'), f.name);
  assert.equal(report, readFileSync(join(GOLDEN, 'report.txt'), 'utf8'));
});

test('systemd-analyze verify accepts every unit of the export fixture, strictly', (t) => {
  if (!needSystemdAnalyze(t)) return;
  const { files } = exportSystemd(exportStack(), EXPORT_CTX, { prefix: 'svc-' });
  const { status, problems } = verifyUnits(files);
  assert.deepEqual(problems, []);
  assert.equal(status, 0);
});

test('systemd-analyze verify accepts the units of every import fixture (only their binaries are not on this machine)', (t) => {
  if (!needSystemdAnalyze(t)) return;
  const cases: [ImportFormat, string][] = [
    ['pm2', 'ecosystem.config.js'],
    ['pm2', 'dump.pm2'],
    ['supervisord', 'supervisord.conf'],
    ['process-compose', 'process-compose.yaml'],
    ['procfile', 'Procfile'],
  ];
  for (const [format, file] of cases) {
    const { services } = importFile(format, `${virtualDir(format)}/${file}`, file, fixturePorts(format));
    const { files } = exportSystemd(services, { ...EXPORT_CTX, resolveExecutable: (n) => `/usr/bin/${n}` }, { prefix: '' });
    const { problems } = verifyUnits(files, (path) => !existsSync(path));
    assert.deepEqual(problems, [], `${format} ${file}`);
  }
});

test('systemd --self: the unit that runs svcd verifies and keeps programs alive across an svcd crash', (t) => {
  const unit = svcdUnit({ node: process.execPath, svcd: join(process.cwd(), 'dist/bin/svcd.js'), root: '/srv/svc root', stopTimeoutSecs: 120 });
  assert.match(unit, /^KillMode=process$/m);
  assert.match(unit, /^Environment="SVC_ROOT=\/srv\/svc root"$/m);
  assert.match(unit, /^ExecStart=\S+ --max-semi-space-size=1 --v8-pool-size=1 \S+svcd\.js$/m);
  if (!needSystemdAnalyze(t)) return;
  const { problems } = verifyUnits([{ name: 'svcd.service', content: unit }], (path) => path.endsWith('svcd.js'));
  assert.deepEqual(problems, []);
});

test('systemd: env_file lines that EnvironmentFile= reads otherwise than svc (dotenv) are reported with their lines; a file read alike, nothing', () => {
  const dotenv = ['# foreman .env', 'export PORT=3000', 'PLAIN=a b', 'URL=http://x/#frag', 'MULTI="line1\\nline2"', 'QUOTED="ok" # note', "SINGLE='a\\nb'", 'TICK=`x`', 'SPACED = "v"'].join('\n');
  const files: Record<string, string> = { '/srv/app/.env': dotenv, '/srv/app/clean.env': 'A=1\nB="two words"\n# comment\nC=\'x#y\'\n' };
  const ctx = { ...EXPORT_CTX, readText: (p: string) => files[p] ?? null };
  const findings = (envFile: string) => exportSystemd([{ name: 'web', command: '/bin/web', env_file: envFile }], ctx, { prefix: '' }).report.filter((f) => f.field === 'env_file');
  const [finding, ...rest] = findings('/srv/app/.env');
  assert.deepEqual(rest, []);
  assert.equal(finding?.kind, 'approximated');
  assert.match(finding?.message ?? '', /^systemd reads EnvironmentFile= otherwise than svc \(a dotenv file\): \/srv\/app\/\.env:2: 'export PORT': .*; \/srv\/app\/\.env:4: an unquoted value with #.*; \/srv\/app\/\.env:5: \\n or \\r in double quotes.*; and 2 more lines$/);
  assert.deepEqual(findings('/srv/app/clean.env'), []);
  assert.match(findings('/elsewhere/.env')[0]?.message ?? '', /\/elsewhere\/\.env could not be read here to check it/);
});

test('systemd: a path with a line break (or a trailing backslash, a continuation) cannot be a one-line directive: left out and reported, never a unit with an extra line', (t) => {
  const config = { name: 'odd', command: '/bin/odd ${X} 50%', cwd: '/srv/a\nExecStartPre=/bin/evil', stdout_logfile: '/var/log/odd\\', stderr_logfile: '/var/log/50%.err' };
  const result = exportSystemd([config], EXPORT_CTX, { prefix: '' });
  const unit = result.files[0]?.content ?? '';
  assert.doesNotMatch(unit, /evil|WorkingDirectory|StandardOutput/);
  assert.match(unit, /^ExecStart=\/bin\/odd "\$\$\{X\}" "50%%"$/m);
  assert.match(unit, /^StandardError=append:\/var\/log\/50%%\.err$/m);
  assert.deepEqual(result.report.map((f) => [f.field, f.kind]), [['cwd', 'unexpressible'], ['stdout_logfile', 'unexpressible']]);
  if (!needSystemdAnalyze(t)) return;
  assert.deepEqual(verifyUnits(result.files, (path) => path === '/bin/odd').problems, []);
});
