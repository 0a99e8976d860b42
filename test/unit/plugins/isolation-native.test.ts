// isolation.so through koffi: each C function against real files (a temporary directory, /proc,
// and this host's cgroup mounts where they exist).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CgroupFsError } from '../../../plugins/isolation/cgroup-fs.js';
import { isolationNative } from '../../helpers/isolation-fs.js';
import { prepareParent } from '../../../controllers/isolation/detect.js';
import { fakeCgroupTree } from '../../helpers/cgroup-tree.js';

const fs = isolationNative();

test('ABI: the library is the isolation plugin', () => {
  assert.match(fs.version, /^\d+\.\d+\.\d+$/);
});

test('fs_kind tells cgroup2, cgroup v1 and other file systems apart; a missing path is null', () => {
  assert.equal(fs.fsKind('/proc'), 'other');
  assert.equal(fs.fsKind('/nonexistent/path'), null);
  const mounts = readFileSync('/proc/self/mounts', 'utf8').split('\n').map((l) => l.split(' '));
  const v2 = mounts.find((m) => m[2] === 'cgroup2')?.[1];
  if (v2) assert.equal(fs.fsKind(v2), 'cgroup2');
  const v1 = mounts.find((m) => m[2] === 'cgroup')?.[1];
  if (v1) assert.equal(fs.fsKind(v1), 'cgroup1');
});

test('mkdir (an existing directory is fine), write as echo does, read, remove; errors carry the errno name', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-isolation-native-'));
  try {
    assert.equal(fs.notWritable(dir), null);
    const cg = join(dir, 'svc');
    fs.mkdir(cg);
    fs.mkdir(cg);
    fs.write(join(cg, 'memory.max'), '64000000');
    fs.write(join(cg, 'memory.max'), '1000');
    assert.equal(fs.read(join(cg, 'memory.max')), '1000', 'truncated on write, as `echo 1000 > memory.max`');
    assert.equal(fs.read(join(cg, 'absent')), null);
    const big = 'x'.repeat(20_000);
    writeFileSync(join(cg, 'big'), big);
    assert.equal(fs.read(join(cg, 'big'))!.length, 16 * 1024 - 1, 'reads are capped, never overflow');
    mkdirSync(join(cg, 'child'));
    assert.throws(() => fs.remove(cg), (e: unknown) => e instanceof CgroupFsError && /^rmdir .*svc: (ENOTEMPTY|EEXIST)$/.test(e.message), 'a child cgroup is never removed with it');
    assert.ok(existsSync(cg));
    fs.remove(join(cg, 'child'));
    fs.remove(cg);
    assert.equal(existsSync(cg), false);
    fs.remove(cg); // gone already: fine
    assert.deepEqual(fs.children(cg), []);
    assert.throws(() => fs.write(join(dir, 'no', 'such'), '1'), /write "1" to .*no\/such: ENOENT/);
    assert.throws(() => fs.mkdir(join(dir, 'no', 'such')), /mkdir .*: ENOENT/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('prepareParent enables cpu and memory for the svc parent; a failure says which cgroup', () => {
  const tree = fakeCgroupTree();
  try {
    assert.equal(prepareParent(fs, tree), null);
    assert.equal(readFileSync(join(tree, 'cgroup.subtree_control'), 'utf8'), '+cpu +memory');
    assert.equal(readFileSync(join(tree, 'svc', 'cgroup.subtree_control'), 'utf8'), '+cpu +memory');
    assert.match(prepareParent(fs, join(tree, 'absent')) ?? '', /^cannot enable the cpu and memory controllers for .*absent\/svc: write "\+cpu \+memory" to .*: ENOENT$/);
  } finally {
    rmSync(join(tree, '..'), { recursive: true, force: true });
  }
});
