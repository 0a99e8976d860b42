// svc-exec (native/exec), the child_process fallback's step between fork and exec, run directly:
// the AddressSanitizer build when `npm run build:asan` made it after the plain one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, openSync, closeSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from '../../helpers/daemon.js';

const BUILT = join(REPO, 'dist', 'native', 'svc-exec');
const ASAN = join(REPO, 'dist', 'native-asan', 'svc-exec');
const binary = existsSync(ASAN) && statSync(ASAN).mtimeMs >= statSync(BUILT).mtimeMs ? ASAN : BUILT;

function run(args: string[], stdio: (number | 'pipe' | 'ignore')[] = ['ignore', 'pipe', 'pipe']) {
  const r = spawnSync(binary, args, { encoding: 'utf8', stdio, env: { PATH: '/usr/bin:/bin' } });
  return { code: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

test('malformed options are a usage error (status 127), never a crash', () => {
  for (const args of [
    [],
    ['--'],
    ['--uid'],
    ['--uid', '-1', '--', 'true'],
    ['--uid', '2147483648', '--', 'true'],
    ['--uid', '12x', '--', 'true'],
    ['--gid', '', '--', 'true'],
    ['--groups', '1,,2', '--uid', '0', '--', 'true'],
    ['--groups', 'a', '--uid', '0', '--', 'true'],
    ['--status-fd', '2', '--', 'true'],
    ['--status-fd', '99', '--', 'true'],
    ['--bogus', 'x', '--', 'true'],
    ['--nofile', '0', '--', 'true'],
    ['--nofile', '-5', '--', 'true'],
  ]) {
    const r = run(args);
    assert.equal(r.code, 127, `${args.slice(0, 4).join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, /^usage: svc-exec /, args.slice(0, 4).join(' '));
  }
});

test('the program runs in place with fds 0 to 2 only; a failed exec is reported on the status fd', () => {
  // An fd that is not close-on-exec, as svcd's LevelDB files are: the program must not get it.
  const extra = openSync('/dev/null', 'r');
  try {
    const r = run(['--', 'sh', '-c', 'ls /proc/self/fd | sort -n | tr "\\n" " "'], ['ignore', 'pipe', 'pipe', extra]);
    assert.equal(r.code, 0, r.stderr);
    // ls's own directory fd shows up as 3.
    assert.equal(r.stdout, '0 1 2 3 ');
  } finally {
    closeSync(extra);
  }
  const missing = run(['--status-fd', '3', '--', 'no-such-command-svc'], ['ignore', 'pipe', 'pipe', 'pipe']);
  assert.equal(missing.code, 127);
  assert.match(missing.stderr, /svc-exec: no-such-command-svc: No such file or directory/);
});

test('with uid and groups (as root): setgroups, setgid, setuid, in that order', { skip: process.getuid?.() !== 0 ? 'needs root' : false }, () => {
  const r = run(['--uid', '65534', '--gid', '65534', '--groups', '65534,4242', '--', 'sh', '-c', 'echo $(id -u):$(id -g):$(id -G)']);
  assert.equal(r.stdout.trim(), '65534:65534:65534 4242', r.stderr);
  assert.equal(r.stderr, '');
});

test('--nofile: the program starts with that soft open-files limit, capped at the hard limit', () => {
  const hard = run(['--', 'sh', '-c', 'ulimit -Hn']).stdout.trim();
  assert.match(hard, /^(\d+|unlimited)$/);
  assert.equal(run(['--nofile', '1000', '--', 'sh', '-c', 'ulimit -Sn; ulimit -Hn']).stdout, `1000\n${hard}\n`);
  if (hard !== 'unlimited') assert.equal(run(['--nofile', String(Number(hard) + 1), '--', 'sh', '-c', 'ulimit -Sn']).stdout, `${hard}\n`);
});
