import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { eventually, removeRoot, startDaemon, tempRoot, type RunningDaemon } from '../helpers/daemon.js';
import { runCli } from '../helpers/cli.js';
import { runSvcd } from '../helpers/faults.js';
import { flipBytes, putRaw, walFiles } from '../helpers/level-damage.js';

interface Storage {
  events: { malformed_records: number; recovered_at_open: string | null };
}

/** A stored event record as svcd writes it (state/events/types.ts), one LevelDB write each. */
function events(count: number, fromMs: number): [string, string][] {
  return Array.from({ length: count }, (_, i) => {
    const ts_ms = fromMs + i;
    const id = `${String(ts_ms).padStart(15, '0')}-${String(900_000 + i).padStart(12, '0')}`;
    const record = { id, ts: Math.floor(ts_ms / 1000), ts_ms, program_id: null, program_name: null, event: 'system_startup', exit_code: null, signal: null, retry_count: null, duration_secs: null, msg: `seeded event ${i} ${'x'.repeat(200)}` };
    return [id, JSON.stringify(record)];
  });
}

async function stopped(root: string, prepare: (d: RunningDaemon) => Promise<void> = async () => undefined): Promise<void> {
  const d = await startDaemon(root);
  try {
    await prepare(d);
  } finally {
    assert.equal(await d.stop(), 0);
  }
}

/** Finding 14: one malformed record used to make the history query a 500. */
void test('a malformed event record: GET /api/v1/events?limit=1000 answers 200 without it, and svc storage counts it', async () => {
  const root = tempRoot('svc-fault-event-record-');
  await stopped(root);
  const file = join(root, 'data', 'events.db');
  await putRaw(file, 'e', [['000000000000001-000000000001', '{"id": "000000000000001-000000000001", broken']]);
  const d = await startDaemon(root);
  try {
    // This start's system_startup is written behind the ready line: wait for it.
    const res = await eventually(async () => {
      const r = await d.request<{ event: string }[]>('GET', '/api/v1/events?limit=1000');
      return r.status !== 200 || r.body.length >= 3 ? r : null;
    }, 5000, 'three events in the history');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.map((e) => e.event), ['system_startup', 'system_shutdown', 'system_startup']);
    const storage = (await d.request<Storage>('GET', '/api/v1/system/storage')).body;
    assert.equal(storage.events.malformed_records, 1);
    assert.match((await runCli(['--url', d.url, 'storage'])).stdout, /event history: +writable; 1 malformed record\(s\) skipped by queries/);
    assert.ok(d.stderr.some((l) => /event history record is malformed; queries skip it/.test(l) && /000000000000001-000000000001/.test(l)), 'the log names the record');
  } finally {
    await d.stop();
    removeRoot(root);
  }
});

/** Finding 14: damage to the history's log used to lose events silently. */
void test('a damaged event history log: svcd starts (history is not desired state), says what was lost, keeps a copy', async () => {
  const root = tempRoot('svc-fault-event-wal-');
  await stopped(root);
  const file = join(root, 'data', 'events.db');
  const seeded = events(60, Date.UTC(2030, 0, 1));
  await putRaw(file, 'e', seeded, { oneWriteEach: true });
  flipBytes(walFiles(file)[0], 3000);
  const d = await startDaemon(root);
  try {
    const storage = (await d.request<Storage>('GET', '/api/v1/system/storage')).body;
    assert.match(storage.events.recovered_at_open ?? '', /damaged write-ahead log: \d+\.log at byte \d+: checksum mismatch .*LevelDB dropped \d+ bytes .*copies of the damaged logs are in .*events\.db\.damaged-/);
    assert.ok(d.stderr.some((l) => /the event history was damaged; what could be read was kept/.test(l)), 'the daemon log says so');
    assert.ok(readdirSync(join(root, 'data')).some((n) => n.startsWith('events.db.damaged-')));
    const cli = await runCli(['--url', d.url, 'storage']);
    assert.match(cli.stdout, /event history at start: damaged write-ahead log/);
  } finally {
    await d.stop();
    removeRoot(root);
  }
});

void test('a corrupt event history MANIFEST: svcd refuses, naming the store and the file', async () => {
  const root = tempRoot('svc-fault-event-manifest-');
  await stopped(root);
  try {
    const location = join(root, 'data', 'events.db');
    const manifest = readdirSync(location).find((n) => n.startsWith('MANIFEST-'))!;
    flipBytes(join(location, manifest), 12);
    const refused = await runSvcd(root);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, new RegExp(`refusing to start: the event history at .*events\\.db is corrupt \\(Corruption: .*damaged: ${manifest} at byte \\d+.*move it aside to start empty`));
  } finally {
    removeRoot(root);
  }
});
