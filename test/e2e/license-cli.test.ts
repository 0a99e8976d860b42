// svc license issue: the keys it will not sign, and the one it signs with a warning.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-license-cli-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

test('svc license issue refuses an empty version range and warns about a key that has expired already', async () => {
  assert.equal((await runCli(['license', 'keygen', '--out', dir])).code, 0);
  const issue = (...args: string[]) => runCli(['license', 'issue', '--signing-key', join(dir, 'license-signing.key'), '--to', 'Test Co', '--grants', 'security', ...args]);

  const empty = await issue('--min-version', '0.5.0', '--max-version', '0.2.0');
  assert.equal(empty.code, 2);
  assert.equal(empty.stderr, 'svc: min_version 0.5.0 is after max_version 0.2.0: the license would verify for no svcd\n');
  assert.equal(empty.stdout, '');

  const expired = await issue('--expires', '2020-01-01');
  assert.equal(expired.code, 0);
  assert.match(expired.stdout, /^SVC1\.[\w-]+\.[\w-]+\n$/);
  assert.equal(expired.stderr, 'warning: the license expired at 2020-01-01 00:00:00Z already: svcd refuses it unless [license].retain_grants_after_expiry = true\n');

  const inspect = await runCli(['license', 'inspect', expired.stdout.trim(), '--trusted-keys', join(dir, 'license-signing.pub')]);
  assert.equal(inspect.code, 1);
  assert.match(inspect.stdout, /does not verify here: expired: the license expired at 2020-01-01T00:00:00\.000Z/);
});

test('svc license issue warns about a grant that names no plugin (a misspelt one signed a key that loads nothing, silently)', async () => {
  const res = await runCli(['license', 'issue', '--signing-key', join(dir, 'license-signing.key'), '--to', 'Test Co', '--grants', 'secuirty,notify']);
  assert.equal(res.code, 0, res.stderr);
  assert.match(res.stdout, /^SVC1\.[\w-]+\.[\w-]+\n$/);
  assert.equal(res.stderr, "warning: grant 'secuirty' names no plugin this svc knows (security, notify, isolation, ui): svcd loads nothing for it\n");
  const known = await runCli(['license', 'issue', '--signing-key', join(dir, 'license-signing.key'), '--to', 'Test Co', '--grants', 'security,notify,isolation,ui']);
  assert.equal(known.stderr, '');
});
