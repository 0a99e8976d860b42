import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SVCD_NODE_FLAGS } from '../../../conf/node-flags.js';

void test("svcd's Node flags are the same in its shebang, `npm start` and conf/node-flags.ts", () => {
  const flags = SVCD_NODE_FLAGS.join(' ');
  for (const file of ['bin/svcd.ts', 'dist/bin/svcd.js']) {
    assert.equal(readFileSync(join(process.cwd(), file), 'utf8').split('\n', 1)[0], `#!/usr/bin/env -S node ${flags}`, file);
  }
  const pkg = JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  assert.equal(pkg.scripts.start, `npm run build && node ${flags} dist/bin/svcd.js`);
});
