import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, removeRoot, startDaemon, tempRoot } from '../helpers/daemon.js';

interface Ev {
  event: string;
  msg: string;
  ts_ms: number;
}

// A queued firing is a run the schedule owes: a crash of svcd must not lose it (docs/cron.md).
test('queued cron firings survive a crash of svcd: the next daemon starts them first', async () => {
  const root = tempRoot('svc-cron-queue-');
  let d = await startDaemon(root);
  try {
    const created = await d.request('POST', '/api/v1/programs', {
      name: 'slow',
      command: '/bin/sh',
      args: ['-c', 'sleep 4.5'],
      cron: '*/2 * * * * *',
      on_overlap: 'queue',
      max_concurrent: 1,
    });
    assert.equal(created.status, 201);
    const id = created.body.id as string;
    await eventually(async () => ((await d.request('GET', `/api/v1/programs/${id}`)).body.state.cron?.queued ?? 0) >= 2, 15_000, 'two firings queued behind the run');
    const crashedAt = Date.now();
    await d.crash();
    d = await startDaemon(root);
    const started = await eventually(async () => {
      const events = (await d.request<Ev[]>('GET', `/api/v1/programs/${id}/events?event_type=cron_started`)).body;
      const after = events.filter((e) => e.ts_ms > crashedAt).sort((a, b) => a.ts_ms - b.ts_ms);
      return after.length > 0 ? after[0] : null;
    }, 20_000, 'a run started by the next daemon');
    // Its slot is one queued before the crash, not one of the new daemon's.
    const slot = /for slot (\S+?),? /.exec(`${started.msg} `)?.[1];
    assert.match(started.msg, /, queue$/, started.msg);
    assert.ok(slot && Date.parse(slot) < crashedAt, `slot ${slot} was queued before the crash (${new Date(crashedAt).toISOString()})`);
  } finally {
    await d.stop();
    removeRoot(root);
  }
});
