import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { eventually, fixture, useDaemon } from '../helpers/daemon.js';

// A value only svcd's own environment holds: it must never come back through the API.
const SECRET = 'svc-secret-4f1d2c9e';
const d = useDaemon({ env: { SVC_TEST_SECRET: SECRET } });

const node = (script: string, extra: Record<string, unknown> = {}) => ({ command: process.execPath, args: [fixture(script)], ...extra });
const create = async (name: string, body: Record<string, unknown>) => {
  const res = await d.request('POST', '/api/v1/programs', { name, ...body });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.id as string;
};
const detail = async (id: string) => (await d.request('GET', `/api/v1/programs/${id}`)).body;
/** The reason the last start failed, once the program has given up (retry_limit reached or autorestart false). */
const failure = async (id: string, status = 'Exited') => {
  const body = await eventually(async () => {
    const b = await detail(id);
    return b.status === status ? b : null;
  }, 30_000, `status ${status}`);
  return body.state.last_exit.msg as string;
};
const daemonFds = () => readdirSync(`/proc/${d.proc.pid}/fd`).length;

test('NUL bytes and out-of-range ids are refused at validation with the field named', async () => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ command: 'a\0b' }, /command: must not contain a NUL byte/],
    [{ command: 'sleep', args: ['1\0'] }, /args\[0\]: must not contain a NUL byte/],
    [{ command: 'sleep', cwd: '/tmp\0' }, /cwd: must not contain a NUL byte/],
    [{ command: 'sleep', env: { A: '\0' } }, /env\.A: must not contain a NUL byte/],
    [{ command: 'sleep', user: 1e308 }, /user: must be a user name or a numeric uid from 0 to 2147483647/],
  ];
  for (const [body, message] of cases) {
    const res = await d.request('POST', '/api/v1/programs', { name: 'nul', ...body });
    assert.equal(res.status, 400);
    assert.match(res.body.message, message);
  }
});

test('repeated spawn failures (env_file missing) leak no file descriptor, and say what is wrong', async () => {
  // A cwd that is a file cannot heal: Fatal at once, after one attempt (docs/states.md).
  const file = join(d.root, 'not-a-dir');
  writeFileSync(file, '');
  const once = await create('cwdfile', node('forever.js', { cwd: file, backoff_secs: 0.01, backoff_max_secs: 0.01, retry_limit: 60 }));
  assert.equal(await failure(once, 'Fatal'), `spawn failed: cwd ${file} is not a directory`);
  // A missing env_file may still be deployed: retried by the policy, 61 attempts here.
  const before = daemonFds();
  const id = await create('noenv', node('forever.js', { env_file: join(d.root, 'absent.env'), backoff_secs: 0.01, backoff_max_secs: 0.01, retry_limit: 60 }));
  assert.match(await failure(id, 'Fatal'), /^spawn failed: env_file: cannot read .*absent\.env/);
  // 61 attempts; a leak of two per attempt would be obvious. Allow small noise (sockets of this client).
  assert.ok(daemonFds() <= before + 4, `fds before ${before}, after ${daemonFds()}`);
});

test('a missing cwd is reported as such, not as "command not found"', async () => {
  const id = await create('nocwd', node('forever.js', { cwd: 'missing-dir', autorestart: 'false' }));
  // It cannot heal by itself: Fatal at once, whatever autorestart says (docs/states.md).
  assert.equal(await failure(id, 'Fatal'), `spawn failed: cwd ${join(d.root, 'missing-dir')} does not exist`);
});

test('env_file: special files are refused and the daemon environment is never echoed', async () => {
  const environ = await create('environ', node('forever.js', { env_file: '/proc/self/environ', autorestart: 'false' }));
  const msg = await failure(environ);
  assert.match(msg, /^spawn failed: env_file: \/proc\/self\/environ: variable '.*' contains a NUL byte/);
  assert.ok(!msg.includes(SECRET));
  const fifo = join(d.root, 'env.fifo');
  execFileSync('mkfifo', [fifo]);
  const f = await create('fifo', node('forever.js', { env_file: fifo, autorestart: 'false' }));
  assert.equal(await failure(f), `spawn failed: env_file: cannot read ${fifo}: not a regular file`);
  const zero = await create('zero', node('forever.js', { env_file: '/dev/zero', autorestart: 'false' }));
  assert.equal(await failure(zero), 'spawn failed: env_file: cannot read /dev/zero: not a regular file');
  const big = join(d.root, 'big.env');
  writeFileSync(big, `A=${'x'.repeat(1024 * 1024)}\n`);
  const b = await create('bigenv', node('forever.js', { env_file: big, autorestart: 'false' }));
  assert.equal(await failure(b), `spawn failed: env_file: cannot read ${big}: larger than 1048576 bytes`);
  const events = await d.request('GET', '/api/v1/events?limit=1000');
  assert.ok(!JSON.stringify(events.body).includes(SECRET), 'no event carries the daemon environment');
});

test('env_file is read with the permissions of the user the program runs as', { skip: process.getuid?.() !== 0 ? 'needs root to switch user' : false }, async () => {
  const dir = join(d.root, 'private');
  mkdirSync(dir, { recursive: true });
  const secret = join(dir, 'root-only.env');
  writeFileSync(secret, 'TOKEN=root-only\n');
  chmodSync(secret, 0o600);
  const id = await create('asnobody', node('forever.js', { user: 'nobody', env_file: secret, autorestart: 'false' }));
  assert.match(await failure(id), new RegExp(`^spawn failed: env_file: cannot read ${secret}: not readable by uid \\d+$`));
});
