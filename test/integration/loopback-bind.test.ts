import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { removeRoot, SVCD, tempRoot, writeConfig } from '../helpers/daemon.js';

test('a host that only looks loopback (127.example.com) is resolved and refused without auth_secret', () => {
  const root = tempRoot();
  try {
    writeConfig(root, '[server]\nhost = "127.example.com"\nport = 0\n');
    const run = spawnSync(process.execPath, [SVCD], { env: { ...process.env, SVC_ROOT: root }, encoding: 'utf8', timeout: 60_000 });
    assert.equal(run.status, 2);
    // Offline the name does not resolve; online it resolves to a public address: refused either way, before listening.
    assert.match(run.stderr, /^svcd: refusing to start: .*server\.host = "127\.example\.com".*(cannot resolve|is not loopback)/m);
    assert.doesNotMatch(run.stderr, /svcd ready/);
  } finally {
    removeRoot(root);
  }
});

test('a host that does not resolve is refused naming the file and the line', () => {
  const root = tempRoot();
  try {
    writeConfig(root, '[server]\nport = 0\nhost = "no-such-host.invalid"\n');
    const run = spawnSync(process.execPath, [SVCD], { env: { ...process.env, SVC_ROOT: root }, encoding: 'utf8', timeout: 60_000 });
    assert.equal(run.status, 2);
    assert.match(run.stderr, /^svcd: refusing to start: \S+\/conf\/svc\.toml:3: server\.host = "no-such-host\.invalid": cannot resolve \(/m);
  } finally {
    removeRoot(root);
  }
});
