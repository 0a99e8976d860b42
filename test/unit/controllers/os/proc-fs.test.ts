import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLOCK_TICKS, PAGE_SIZE, procStartTime, readStat, statField } from '../../../../controllers/os/proc-fs.js';

void test('readStat: the fields after the command name, even one with spaces and a parenthesis; null once the process is gone', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-procfs-'));
  const exe = join(dir, 'a) b (c');
  copyFileSync('/bin/sleep', exe);
  const child = spawn(exe, ['30'], { stdio: 'ignore' });
  try {
    await new Promise((resolve) => child.once('spawn', resolve));
    const fields = readStat(child.pid!);
    assert.ok(fields, 'read');
    assert.match(fields[0] ?? '', /^[RSD]$/, 'state');
    assert.equal(statField(fields, 4), process.pid, 'ppid (field 4) is this test');
    assert.equal(procStartTime(child.pid!), statField(fields, 22));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    assert.equal(readStat(child.pid!), null);
  } finally {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});

void test('clock ticks and page size (from the auxiliary vector) agree with getconf', () => {
  assert.equal(CLOCK_TICKS, Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()));
  assert.equal(PAGE_SIZE, Number(execFileSync('getconf', ['PAGESIZE'], { encoding: 'utf8' }).trim()));
});
