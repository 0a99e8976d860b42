import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES } from '../../../helpers/daemon.js';
import { checkStackFile } from '../../../../stacks/check.js';
import { loadStackText } from '../../../../stacks/load.js';
import { stringifyStack } from '../../../../stacks/serialize.js';
import { validateServices } from '../../../../stacks/validate-stack.js';
import { importFile } from '../../../../stacks/import/run.js';
import { renderImport } from '../../../../stacks/import/render.js';
import { formatReportEntry } from '../../../../stacks/import/report.js';
import type { ImportFormat, ImportOptions } from '../../../../stacks/import/types.js';
import { fixturePorts, memoryPorts, virtualDir } from './ports.js';

/** Every fixture, with the options a user would pass, and the syntax of its golden output. */
const CASES: { format: ImportFormat; file: string; opts?: ImportOptions; syntax: 'toml' | 'yaml' | 'json' }[] = [
  { format: 'pm2', file: 'ecosystem.config.js', opts: { pm2Env: 'production' }, syntax: 'toml' },
  { format: 'pm2', file: 'ecosystem.json', syntax: 'toml' },
  { format: 'pm2', file: 'ecosystem.yaml', syntax: 'yaml' },
  { format: 'pm2', file: 'dump.pm2', syntax: 'toml' },
  { format: 'supervisord', file: 'supervisord.conf', syntax: 'toml' },
  { format: 'process-compose', file: 'process-compose.yaml', syntax: 'yaml' },
  { format: 'procfile', file: 'Procfile', syntax: 'toml' },
];

const run = (c: (typeof CASES)[number]) => importFile(c.format, `${virtualDir(c.format)}/${c.file}`, c.file, fixturePorts(c.format), c.opts);

for (const c of CASES) {
  const golden = join(FIXTURES, 'import', c.format, `${c.file}.golden.${c.syntax}`);

  test(`${c.format} ${c.file}: matches its golden output`, () => {
    const text = renderImport(run(c), c.syntax, c.file);
    if (process.env.SVC_UPDATE_GOLDEN) writeFileSync(golden, text);
    assert.equal(text, readFileSync(golden, 'utf8'));
  });

  test(`${c.format} ${c.file}: svc check accepts the output, every service has source import:${c.format}`, () => {
    const result = run(c);
    assert.ok(result.services.length > 0);
    for (const s of result.services) assert.equal(s.source, `import:${c.format}`);
    const path = `/out/stack.${c.syntax}`;
    const checked = checkStackFile(path, () => renderImport(result, c.syntax, c.file));
    assert.deepEqual(checked.errors, []);
    assert.deepEqual(checked.warnings, []);
    assert.equal(checked.services, result.services.length);
  });

  test(`${c.format} ${c.file}: import -> stack -> import is stable`, () => {
    const first = run(c);
    const again = run(c);
    assert.deepEqual(again, first, 'the same file imports to the same stack');
    // The stack re-read (as svc apply / svc check read it) is the same configs, and writing it
    // again (as svc export does) gives the same text.
    const body = stringifyStack({ prune: false, services: first.services }, c.syntax);
    const reread = validateServices(loadStackText(body, c.syntax), { logDir: '/', logDirUnknown: true, source: 'x' }).map((d) => d.config);
    assert.deepEqual(JSON.parse(JSON.stringify(reread)), first.services);
    assert.equal(stringifyStack({ prune: false, services: reread }, c.syntax), body);
  });
}

test('every report entry names a file of the import and a line inside it', () => {
  for (const c of CASES) {
    const result = run(c);
    for (const e of result.report) {
      const text = fixturePorts(c.format).readText(`${virtualDir(c.format)}/${e.file === c.file ? c.file : e.file}`);
      assert.ok(e.line >= 1 && e.line <= text.split('\n').length, `${c.file}: ${JSON.stringify(e)}`);
    }
  }
});

test('a name or value with a newline or other control character quoted by the report keeps the stack valid (one comment line per entry) and the report one line per entry', () => {
  const ecosystem = JSON.stringify({ apps: [{ name: 'legacy\napi', script: '/bin/sleep', namespace: 'a\r\u001b[31m' }] });
  const result = importFile('pm2', '/srv/pm2/ecosystem.json', 'ecosystem.json', memoryPorts({ '/srv/pm2/ecosystem.json': ecosystem }));
  assert.match(formatReportEntry(result.report[0]), /^ecosystem\.json:1: legacy-api: name: approximated: 'legacy\\napi' is not a valid svc name; renamed to 'legacy-api'$/);
  for (const syntax of ['toml', 'yaml'] as const) {
    const checked = checkStackFile(`/out/stack.${syntax}`, () => renderImport(result, syntax, 'eco\nsystem.json'));
    assert.deepEqual(checked.errors, [], syntax);
    assert.equal(checked.services, 1);
  }
});
