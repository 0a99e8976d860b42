import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { eventually, removeRoot, startDaemon, tempRoot } from '../helpers/daemon.js';
import { killSvcProcesses } from '../helpers/svc-processes.js';

/**
 * The most aggressive restart settings the schema accepts (backoff_secs = 0, no retry limit,
 * startsecs 0) on 10 programs that exit at once: the daemon must keep answering, keep writing
 * events, stay small and obey SIGTERM (issue 25, finding 6: this once livelocked svcd).
 */
const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;

test('a crash loop at backoff_secs 0 keeps the API responsive, events flowing and SIGTERM obeyed', { timeout: 300_000 }, async () => {
  const root = tempRoot('svc-fault-loop-');
  const d = await startDaemon(root);
  try {
    const looping = Array.from({ length: 10 }, (_, i) => ({ name: `loop${i}`, command: 'sh', args: ['-c', 'exit 1'], backoff_secs: 0, backoff_max_secs: 0, startsecs: 0 }));
    assert.equal((await d.request('POST', '/api/v1/programs', looping)).status, 201);
    const exitsAt = async () => (await d.request('GET', '/api/v1/events/stats')).body.by_type.process_exit ?? 0;
    await eventually(async () => (await exitsAt()) > 100, 60_000, 'a hundred crashes recorded');
    // While it loops, the API answers, again and again (the livelock never answered at all; the
    // bound leaves room for a slow, loaded machine).
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`${d.url}/health`, { signal: AbortSignal.timeout(15_000) });
      assert.equal(res.status, 200);
    }
    const before = await exitsAt();
    await eventually(async () => (await exitsAt()) > before, 10_000, 'events still being written');
    assert.ok(rssOf(d.proc.pid!) < 250 * 1024 * 1024, `svcd RSS ${rssOf(d.proc.pid!)} bytes stays bounded`);
    const code = await Promise.race([d.stop(), new Promise((r) => setTimeout(() => r('timeout'), 60_000))]);
    assert.equal(code, 0, 'SIGTERM stops the daemon cleanly while programs crash-loop');
  } finally {
    if (d.proc.exitCode === null) d.proc.kill('SIGKILL');
    killSvcProcesses(root);
    removeRoot(root);
  }
});
