// Runs the compiled tests with Node's test runner: `node scripts/run-tests.mjs [unit|integration|e2e]`.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';

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
// --test-reporter=tap: the failures below are read from TAP. Node 20 and 22 chose TAP only
// because stdout is a pipe here; Node 23 and later default to spec everywhere, which has no
// `not ok` lines, and the summary at the end would silently be missing.
const child = spawn(process.execPath, ['--test', '--test-reporter=tap', '--test-concurrency=2', '--test-force-exit', `--test-timeout=${timeoutMs}`, ...files], { stdio: ['ignore', 'pipe', 'inherit'] });
// The output streams through as it comes; failures are also kept and printed again at the end,
// because a CI log is often read from its tail, where the summary says only how many failed.
const failures = collectFailures();
child.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  failures.feed(chunk.toString('utf8'));
});
child.on('close', (code, signal) => {
  failures.end();
  const report = failures.report();
  if (report) process.stdout.write(report);
  process.exit(code ?? (signal ? 1 : 0));
});

/** Keeps each `not ok` line of the TAP stream with its indented diagnostic block that follows. */
function collectFailures() {
  const blocks = [];
  let partial = '';
  let current = null;
  const line = (text) => {
    const failed = /^(\s*)not ok \d+ - (.*)$/.exec(text);
    if (failed) {
      current = { indent: failed[1].length, lines: [text] };
      blocks.push(current);
      return;
    }
    if (!current) return;
    const indent = /^\s*/.exec(text)[0].length;
    if (indent > current.indent || /^\s*(---|\.\.\.)\s*$/.test(text)) {
      if (current.lines.length < 30) current.lines.push(text);
      if (/^\s*\.\.\.\s*$/.test(text) && indent === current.indent + 2) current = null;
    } else current = null;
  };
  return {
    feed(text) {
      const lines = (partial + text).split('\n');
      partial = lines.pop() ?? '';
      for (const each of lines) line(each);
    },
    end() { if (partial) line(partial); },
    report() {
      // A failed file also fails its parents' lines (`not ok ... - dist/test/x.test.js`) with
      // the same cause; the innermost ones say the most, so they come first.
      if (blocks.length === 0) return '';
      const shown = blocks.slice(0, 20).map((block) => block.lines.join('\n')).join('\n');
      const more = blocks.length > 20 ? `\n# … and ${blocks.length - 20} more failures above\n` : '\n';
      const names = blocks.map((block) => `#   ${block.lines[0].trim()}`).join('\n');
      return `\n# ${blocks.length} failure${blocks.length === 1 ? '' : 's'}, repeated from above:\n${shown}${more}# failed:\n${names}\n`;
    },
  };
}
