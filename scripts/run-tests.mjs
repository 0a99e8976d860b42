// Runs the compiled tests with Node's test runner: `node scripts/run-tests.mjs [unit|integration|e2e]`.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const only = process.argv[2];
const root = join('dist', 'test', only ?? '');
const files = [];
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (name.endsWith('.test.js')) files.push(path);
  }
};
walk(root);
if (files.length === 0) {
  console.error(`no test files under ${root}`);
  process.exit(1);
}
files.sort();
// The timeout bounds a hang of each test (and hook): generous, because a busy machine (npm run
// test:stress, a shared CI host) makes a passing test slow; tests themselves wait on conditions.
const timeoutMs = Number(process.env.SVC_TEST_TIMEOUT_MS ?? 600_000);
// --test-force-exit: a file whose tests and hooks are all done exits even if a handle is left
// open (a stray timer, a child's pipe); without it such a file keeps the whole run waiting, and
// CI fails on its own time limit with nothing to say why. Failures are all reported by then.
const result = spawnSync(process.execPath, ['--test', '--test-concurrency=2', '--test-force-exit', `--test-timeout=${timeoutMs}`, ...files], { stdio: 'inherit' });
process.exit(result.status ?? 1);
