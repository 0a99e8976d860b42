import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { exportNomad } from '../../../../stacks/export/nomad/index.js';
import { formatExportFinding } from '../../../../stacks/export/types.js';
import { importFile } from '../../../../stacks/import/run.js';
import type { ImportFormat } from '../../../../stacks/import/types.js';
import { fixturePorts, virtualDir } from '../import/ports.js';
import { nomadRegisterBody } from './nomad-api-schema.js';
import { EXPORT_CTX, EXPORT_FIXTURES, exportStack } from './stack-fixture.js';

const GOLDEN = join(EXPORT_FIXTURES, 'nomad');
const validate = new Ajv({ allErrors: true, strict: true }).compile(nomadRegisterBody);
const OPTS = { job: 'shop', datacenters: ['*'] };

test('nomad: the jobs of the export fixture match the golden HCL and JSON, and the report lists what Nomad cannot express', () => {
  const result = exportNomad(exportStack(), EXPORT_CTX, OPTS);
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

test('nomad: every JSON job has the structure of Nomad’s job API (the export fixture and every import fixture)', () => {
  const sets = [exportStack()];
  const cases: [ImportFormat, string][] = [['pm2', 'ecosystem.config.js'], ['pm2', 'dump.pm2'], ['supervisord', 'supervisord.conf'], ['process-compose', 'process-compose.yaml'], ['procfile', 'Procfile']];
  for (const [format, file] of cases) sets.push(importFile(format, `${virtualDir(format)}/${file}`, file, fixturePorts(format)).services);
  for (const configs of sets) {
    for (const f of exportNomad(configs, EXPORT_CTX, OPTS).files.filter((x) => x.name.endsWith('.json'))) {
      const body = JSON.parse(f.content) as unknown;
      assert.ok(validate(body), `${f.name}: ${JSON.stringify(validate.errors, null, 1)}`);
    }
  }
});

test('nomad: service job for long-running programs, one periodic batch job per cron program, Nomad’s own rules kept', () => {
  const result = exportNomad(exportStack(), EXPORT_CTX, OPTS);
  const jobs = result.files.filter((f) => f.name.endsWith('.json')).map((f) => (JSON.parse(f.content) as { Job: any }).Job);
  assert.deepEqual(jobs.map((j) => [j.ID, j.Type, j.Periodic?.Specs]), [
    ['shop', 'service', undefined],
    ['shop-report', 'batch', ['*/15 9-17 * * mon-fri']],
    ['shop-cleanup', 'batch', ['0 3 1,15 * 5']],
  ]);
  for (const job of jobs) {
    for (const group of job.TaskGroups) {
      const r = group.RestartPolicy;
      // Nomad refuses a restart policy that cannot fit its attempts in the interval.
      assert.ok(r.Interval >= r.Attempts * r.Delay, `${group.Name}: ${JSON.stringify(r)}`);
      for (const task of group.Tasks) assert.match(task.Config.command, /^\//, 'raw_exec needs an absolute command for host binaries');
    }
  }
  const web = jobs[0].TaskGroups.find((g: any) => g.Name === 'web');
  assert.deepEqual(web.Tasks.map((t: any) => [t.Name, t.Lifecycle?.Hook]), [['web-pre-start', 'prestart'], ['web', undefined], ['web-post-stop', 'poststop']]);
  assert.equal(jobs[0].TaskGroups.find((g: any) => g.Name === 'db').Count, 0, 'autostart = false: registered, not running');
  assert.equal(jobs[2].Periodic.Enabled, false);
});

test('nomad: ${ and %{ in command, args and cwd are escaped for the client’s HCL2 evaluation (and again in HCL); ${name} in env values, which Nomad replaces with no escape, is reported', () => {
  const result = exportNomad(
    [{ name: 'lit', command: '/bin/echo', autorestart: 'true', args: ['${HOME}', '%{x}', '$${y}', '$PLAIN'], cwd: '/srv/${dir}', env: { A: 'x${NOMAD_TASK_DIR}y', B: '${not closed', C: '$HOME' } }],
    EXPORT_CTX,
    OPTS,
  );
  const json = result.files.find((f) => f.name === 'shop.nomad.json')?.content ?? '';
  const task = (JSON.parse(json) as { Job: any }).Job.TaskGroups[0].Tasks[0];
  assert.deepEqual(task.Config.args, ['-c', 'cd "$1" && shift && exec "$@"', 'sh', '/srv/$${dir}', '/bin/echo', '$${HOME}', '%%{x}', '$$${y}', '$PLAIN']);
  assert.equal(task.Env.A, 'x${NOMAD_TASK_DIR}y');
  const hcl = result.files.find((f) => f.name === 'shop.nomad.hcl')?.content ?? '';
  assert.match(hcl, /"\$\$\$\{HOME\}", "%%%\{x\}", "\$\$\$\$\{y\}"/);
  assert.match(hcl, /A = "x\$\$\{NOMAD_TASK_DIR\}y"/);
  assert.deepEqual(result.report.map((f) => [f.field, f.kind]), [['env.A', 'approximated']]);
  assert.match(result.report[0]?.message ?? '', /Nomad replaces \$\{NOMAD_TASK_DIR\} at run time/);
});
