import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkStackFile } from '../../../stacks/check.js';

const examples = fileURLToPath(new URL('../../../../stacks/examples', import.meta.url));

test('every example stack shipped in stacks/examples passes svc check', () => {
  const files = readdirSync(examples).filter((f) => /\.(toml|ya?ml|json)$/.test(f));
  assert.ok(files.length >= 2);
  for (const file of files) {
    const result = checkStackFile(join(examples, file), (path) => readFileSync(path, 'utf8'));
    assert.deepEqual(result.errors, [], `${file}: ${result.errors.join('; ')}`);
  }
});
