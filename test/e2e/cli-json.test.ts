import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeRoot, tempRoot } from '../helpers/daemon.js';
import { runCli } from '../helpers/cli.js';

const work = tempRoot('svc-cli-json-');
after(() => removeRoot(work));
// Nothing listens on port 1: these commands must not need svcd.
const offline = (...args: string[]) => runCli(args, { SVC_URL: 'http://127.0.0.1:1' }, work);

test('svc check --json: one result per file on stdout; exit 1 when one is invalid', async () => {
  writeFileSync(join(work, 'good.yaml'), 'services:\n  - name: y\n    command: run\n');
  writeFileSync(join(work, 'bad.json'), '{\n  "services": [\n    {"name": "x", "command": "run", "max_concurrent": 99}\n  ]\n}\n');
  const res = await offline('check', 'good.yaml', 'bad.json', '--json');
  assert.equal(res.code, 1);
  const out = JSON.parse(res.stdout) as { file: string; ok: boolean; services: number; errors: string[] }[];
  assert.deepEqual(
    out.map((r) => [r.file, r.ok, r.services]),
    [
      ['good.yaml', true, 1],
      ['bad.json', false, 0],
    ],
  );
  assert.match(out[1].errors[0], /^bad\.json:3:\d+: /);
  assert.equal((JSON.parse(res.stderr) as { error: { exit_code: number } }).error.exit_code, 1);
});

test('svc apply reports validation errors with path:line:col as svc check does, before reaching svcd', async () => {
  writeFileSync(join(work, 'app.toml'), '[[services]]\nname = "web"\ncommand = "run"\nstartsecs = "soon"\n');
  const check = await offline('check', 'app.toml');
  const apply = await offline('apply', 'app.toml');
  assert.equal(apply.code, 2, apply.stderr);
  const line = check.stderr.split('\n')[0];
  assert.match(line, /^app\.toml:\d+:\d+: .*startsecs/);
  assert.equal(apply.stderr.split('\n')[0], `svc: ${line}`);
});
