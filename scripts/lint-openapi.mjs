// Lints the OpenAPI document svcd serves (generated from the router: api/openapi/document.ts)
// with Redocly's recommended rules (redocly.yaml): zero errors and zero warnings, or the test fails.
// Offline: telemetry and update checks are off (env and redocly.yaml); nothing reaches the network.
import { writeFileSync, existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const built = join('dist', 'api', 'openapi', 'document.js');
if (!existsSync(built)) {
  console.error(`lint-openapi: ${built} is missing; run npm run build first`);
  process.exit(1);
}
const { openApiDocument } = await import(`../${built}`);
const { version } = JSON.parse((await import('node:fs')).readFileSync('package.json', 'utf8'));
// A fixed path (not a temporary one) so that .redocly.lint-ignore.yaml can name it.
const file = join('dist', 'openapi.json');
writeFileSync(file, `${JSON.stringify(openApiDocument(version), null, 2)}\n`);

const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true', CI: 'true', NO_COLOR: '1' };
const bin = join('node_modules', '@redocly', 'cli', 'bin', 'cli.js');
const run = spawnSync(process.execPath, [bin, 'lint', file, '--config', 'redocly.yaml', '--format', 'json'], { env, encoding: 'utf8', timeout: 120_000 });
let report;
try {
  report = JSON.parse(run.stdout);
} catch {
  console.error(`lint-openapi: redocly lint did not answer with a report (exit ${run.status}${run.error ? `, ${run.error.message}` : ''})\n${run.stdout}\n${run.stderr}`);
  process.exit(1);
}
const { errors, warnings, ignored } = report.totals;
if (errors > 0 || warnings > 0 || run.status !== 0) {
  for (const p of report.problems) console.error(`${p.severity} ${p.ruleId}: ${p.message}\n  at ${p.location.map((l) => l.pointer).join(', ')}`);
  console.error(`lint-openapi: ${file}: ${errors} errors, ${warnings} warnings (redocly.yaml lists the documented exceptions)`);
  process.exit(1);
}
console.log(`lint-openapi: ${file}: 0 errors, 0 warnings, ${ignored} documented exceptions (redocly lint)`);
