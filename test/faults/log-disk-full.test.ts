import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, statfsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { eventually, fixture, removeRoot, startDaemon, tempRoot } from '../helpers/daemon.js';

/**
 * The log disk fills up (a 2 MiB tmpfs as log_dir, mounted here; needs root). svc guarantees
 * (docs/operations.md): the API keeps answering and programs can be stopped; rotation shrinks a
 * log file in place when there is no room for its copy, keeping the newest lines and saying so;
 * svcd.log resumes when space returns, noting how many of its lines were lost.
 */
const skip = process.getuid?.() !== 0 ? 'needs root to mount a small tmpfs as the log disk' : false;

const free = (dir: string) => {
  const s = statfsSync(dir);
  return s.bavail * s.bsize;
};

test('a full log disk: rotation frees it in place, svcd.log resumes, the API keeps working', { skip }, async () => {
  const root = tempRoot('svc-fault-logdisk-');
  const logs = join(root, 'logs');
  mkdirSync(logs);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', logs]);
  } catch (err) {
    removeRoot(root);
    return void test.skip?.(`cannot mount a tmpfs here: ${(err as Error).message.split('\n')[0]}`);
  }
  const d = await startDaemon(root, { config: '[server]\nport = 0\n[storage]\nlog_max_bytes = 262144\nlog_keep = 1\n', args: ['--log-level', 'debug'] });
  try {
    const svcdLog = join(logs, 'svcd.log');
    const create = async (name: string, body: Record<string, unknown>) => {
      const res = await d.request('POST', '/api/v1/programs', { name, ...body });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.id as string;
    };
    const spammer = await create('spammer', { command: process.execPath, args: [fixture('fill-log.js')] });
    await eventually(() => free(logs) === 0, 30_000, 'the log disk to be full');

    // While it is full: the API answers, programs start and stop (their events are lines svcd.log loses).
    // svcd.log may still have room in its last page: enough runs (two debug lines each) overflow it.
    const blip = await create('blip', { command: 'true', autorestart: 'false' });
    for (let run = 0; run < 20; run++) {
      await eventually(async () => (await d.request('GET', `/api/v1/programs/${blip}`)).body.status === 'Exited', 30_000, 'blip to run');
      if (run < 19) assert.equal((await d.request('POST', `/api/v1/programs/${blip}/start`)).status, 200);
    }
    const signal = await d.request('POST', `/api/v1/programs/${spammer}/signal`, { signal: 'usr1' }); // pause the writer
    assert.equal(signal.status, 200, JSON.stringify(signal.body));

    // Rotation (every 10 s) cannot copy: it truncates in place, keeping the newest whole lines.
    const out = join(logs, `${spammer}.out`);
    // A rotation may already have happened while the writer ran (and it refilled the file): wait
    // for one that leaves the paused writer's file small.
    await eventually(() => statSync(out).size <= 262144 && readFileSync(out, 'utf8').startsWith('[svcd '), 60_000, 'the spammer log to be rotated in place');
    const text = readFileSync(out, 'utf8');
    const [notice, ...kept] = text.split('\n');
    assert.match(notice ?? '', /^\[svcd \S+\] log rotated in place: the copy to \.1 failed \(ENOSPC\); \d+ older bytes dropped, the newest \d+ kept$/);
    assert.ok(statSync(out).size <= 262144, `rotated file is ${statSync(out).size} bytes`);
    assert.ok(kept.slice(0, -1).every((l) => /^line \d+ x+$/.test(l)), 'only whole lines are kept');
    assert.ok(free(logs) > 1024 * 1024, 'space is free again');

    // svcd.log resumes and says what it lost.
    const lines = await eventually(() => {
      const all = readFileSync(svcdLog, 'utf8').split('\n');
      return all.some((l) => l.includes('were not written while the log file failed (ENOSPC)')) && all.some((l) => l.includes('log rotated in place')) ? all : null;
    }, 30_000, 'svcd.log to resume');
    const at = lines.findIndex((l) => l.includes('not written while the log file failed'));
    assert.match(JSON.parse(lines[at] ?? '{}').msg, /^svcd\.log: \d+ lines were not written while the log file failed \(ENOSPC\)$/);
    // Every line is JSON, except one torn by the full disk, which is ended before the notice.
    lines.slice(0, -1).forEach((line, i) => {
      if (i === at - 1) return;
      assert.doesNotThrow(() => JSON.parse(line), `line ${i + 1}: ${line.slice(0, 80)}`);
    });

    const stop = await d.request('POST', `/api/v1/programs/${spammer}/stop`);
    assert.equal(stop.body.status, 'Stopped');
  } finally {
    await d.stop();
    execFileSync('umount', [logs]);
    removeRoot(root);
  }
});
