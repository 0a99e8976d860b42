import { test } from 'node:test';
import { spawnSync } from 'node:child_process';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../../conf/load-config.js';
import { prepareFolders } from '../../../conf/directories.js';

function withRoot(toml: string, fn: (root: string, file: string) => void): void {
  const root = mkdtempSync(join(tmpdir(), 'svc-folders-'));
  try {
    mkdirSync(join(root, 'conf'));
    writeFileSync(join(root, 'conf', 'svc.toml'), toml);
    writeFileSync(join(root, 'a-file'), 'x');
    fn(root, join(root, 'conf', 'svc.toml'));
  } finally {
    chmodSync(root, 0o700);
    rmSync(root, { recursive: true, force: true });
  }
}

const refusal = (root: string): string => {
  try {
    prepareFolders(loadConfig(root));
  } catch (err) {
    assert.ok(err instanceof ConfigError, String(err));
    return err.message;
  }
  return assert.fail('expected a ConfigError');
};

void test('the folders the configuration names are created', () => {
  withRoot('[server]\nport = 0\n[stacks]\ndir = "deep/stacks"\n', (root) => {
    prepareFolders(loadConfig(root));
    for (const dir of ['data', 'logs', 'deep/stacks']) assert.ok(statSync(join(root, dir)).isDirectory(), dir);
  });
});

void test('a file in the way names the key, its line and the path', () => {
  const cases: [string, RegExp][] = [
    ['[storage]\ndata_dir = "a-file"\n', /svc\.toml:2: storage\.data_dir = ".*\/a-file": not a directory \(a file is in the way; EEXIST\)$/],
    ['[storage]\n\nlog_dir = "a-file/logs"\n', /svc\.toml:3: storage\.log_dir = ".*\/a-file\/logs": not a directory \(a file is in the way; ENOTDIR\)$/],
    ['[storage]\nevents_file = "a-file"\n', /svc\.toml:2: storage\.events_file = ".*\/a-file": not a directory$/],
    ['[stacks]\ndir = "a-file"\n', /svc\.toml:2: stacks\.dir = ".*\/a-file": not a directory/],
    ['[server]\nsocket_only = true\nsocket_path = "a-file/svcd.sock"\n', /svc\.toml:3: server\.socket_path = ".*\/a-file\/svcd\.sock": not a directory/],
  ];
  for (const [toml, message] of cases) withRoot(toml, (root) => assert.match(refusal(root), message, toml));
});

void test('a socket path names only a socket: a file there is refused and kept (svcd deleted it at listen), a path too long for a socket is refused (it failed at listen as "address already in use")', () => {
  withRoot('[server]\nsocket_only = true\nsocket_path = "a-file"\n', (root) => {
    assert.match(refusal(root), /svc\.toml:3: server\.socket_path = ".*\/a-file": not a socket \(a file is in the way; svcd replaces only a socket an earlier svcd left\)$/);
    assert.equal(readFileSync(join(root, 'a-file'), 'utf8'), 'x');
  });
  withRoot(`[server]\nsocket_only = true\nsocket_path = "${'d'.repeat(120)}/svcd.sock"\n`, (root) => {
    assert.match(refusal(root), /svc\.toml:3: server\.socket_path = ".*\/svcd\.sock": \d+ bytes long; a Unix socket path may have at most 107 \(choose a shorter path\)$/);
  });
  withRoot('[server]\nport = 0\nsocket_path = "a-file"\n', (root) => prepareFolders(loadConfig(root))); // not used without socket_only
});

void test('a folder svcd may not write in is refused by its key', (t) => {
  if (process.getuid?.() === 0) return t.skip('root may write anywhere');
  withRoot('[storage]\nlog_dir = "ro/logs"\n', (root) => {
    mkdirSync(join(root, 'ro', 'logs'), { recursive: true });
    chmodSync(join(root, 'ro', 'logs'), 0o555);
    assert.match(refusal(root), /svc\.toml:2: storage\.log_dir = ".*\/ro\/logs": svcd may not write in it \(EACCES\)$/);
    chmodSync(join(root, 'ro', 'logs'), 0o755);
  });
});

void test('a folder on a read-only file system says so (it said EACCES, which sends you to chmod)', (t) => {
  withRoot('[storage]\ndata_dir = "ro"\n', (root) => {
    const dir = join(root, 'ro');
    mkdirSync(dir);
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=1m', 'tmpfs', dir], { encoding: 'utf8' });
    if (mounted.status !== 0) return t.skip(`needs root to mount a read-only tmpfs: ${(mounted.stderr || mounted.error?.message || '').trim()}`);
    try {
      assert.match(refusal(root), /svc\.toml:2: storage\.data_dir = ".*\/ro": it is on a read-only file system \(EROFS\)$/);
    } finally {
      spawnSync('umount', ['-l', dir]);
    }
  });
});

void test('an events_file naming the state store folder is refused by its key (it read as a lock held by another svcd)', () => {
  withRoot('[storage]\ndata_dir = "d"\nevents_file = "d/state.db"\n', (root, file) => {
    assert.equal(refusal(root), `${file}:3: storage.events_file = "${join(root, 'd', 'state.db')}": is the state store's folder (data_dir/state.db); the event history needs a folder of its own`);
  });
});

void test('a folder under /proc or /sys is refused at once (a recursive mkdir there never returns on Node 20)', () => {
  withRoot('[storage]\nlog_dir = "/proc/svc-logs"\n', (root, file) => {
    assert.equal(refusal(root), `${file}:2: storage.log_dir = "/proc/svc-logs": a folder under /proc or /sys cannot hold svc files`);
  });
  withRoot('[storage]\ndata_dir = "/sys/x/y"\n', (root) => assert.match(refusal(root), /storage\.data_dir = "\/sys\/x\/y": a folder under \/proc or \/sys/));
});
