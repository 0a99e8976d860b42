import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, statSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { eventually, fixture, removeRoot, startDaemon, tempRoot, type RunningDaemon } from '../helpers/daemon.js';
import { runCli } from '../helpers/cli.js';
import { killMarked, marker, processesWith, runSvcd } from '../helpers/faults.js';
import { svcProcesses } from '../helpers/svc-processes.js';
import { flipBytes, putRaw, walFiles } from '../helpers/level-damage.js';

interface Item {
  id: string;
  name: string;
  status: string;
}
interface Storage {
  state: { quarantined: { id: string; name: string | null; reason: string }[]; recovered_at_open: string | null };
}

const program = (name: string, more: Record<string, unknown> = {}) => ({ name, command: process.execPath, args: [fixture('forever.js'), marker(name)], ...more });
const names = async (d: RunningDaemon) => (await d.request<Item[]>('GET', '/api/v1/programs')).body.map((p) => p.name).sort();

/**
 * Finding 11: damage to the state store's write-ahead log used to drop programs silently (20
 * of 25 in the report). Now svcd refuses to start, says which file and where, and changes nothing; the user
 * either restores a backup or runs `svcd --repair-store`, which says what it kept.
 */
void test('a damaged state store log: svcd refuses, naming the file; --repair-store keeps what is readable and says so', async () => {
  const root = tempRoot('svc-fault-wal-');
  let d: RunningDaemon | null = await startDaemon(root);
  try {
    for (let i = 0; i < 12; i++) assert.equal((await d.request('POST', '/api/v1/programs', program(`p${i}`, { autostart: false }))).status, 201);
    assert.equal(await d.stop(), 0);
    d = null;
    const [log] = walFiles(join(root, 'data', 'state.db'));
    flipBytes(log, 2000);

    const refused = await runSvcd(root);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /svcd: refusing to start: the state store at .*state\.db has a damaged write-ahead log \(\d+\.log at byte \d+: checksum mismatch \(\d+ bytes\)\)/);
    assert.match(refused.stderr, /svcd --repair-store/);
    assert.equal((await runSvcd(root)).code, 2, 'refuses again: nothing was changed');

    const repair = await runSvcd(root, ['--repair-store']);
    assert.equal(repair.code, 0, repair.stderr);
    const kept = Number(/(\d+) programs kept/.exec(repair.stdout)?.[1]);
    assert.ok(kept > 0 && kept < 12, repair.stdout);
    const lost = /programs lost: (.*)$/m.exec(repair.stdout)?.[1].split(', ') ?? [];
    assert.equal(kept + lost.length, 12, `every program is kept or named as lost:\n${repair.stdout}`);
    assert.match(repair.stdout, /damaged write-ahead log: \d+\.log at byte \d+: checksum mismatch/);
    assert.match(repair.stdout, /copies of the damaged logs are in .*state\.db\.damaged-/);
    assert.ok(readdirSync(join(root, 'data')).some((n) => n.startsWith('state.db.damaged-')));

    d = await startDaemon(root);
    assert.equal((await names(d)).length, kept, 'what repair said it kept is what svcd loads');
  } finally {
    await d?.stop();
    removeRoot(root);
  }
});

void test('a state store log cut short: svcd refuses, naming the programs it would lose', async () => {
  const root = tempRoot('svc-fault-cut-');
  const d = await startDaemon(root);
  try {
    for (let i = 0; i < 25; i++) assert.equal((await d.request('POST', '/api/v1/programs', program(`c${i}`, { autostart: false }))).status, 201);
  } finally {
    assert.equal(await d.stop(), 0);
  }
  try {
    const [log] = walFiles(join(root, 'data', 'state.db'));
    truncateSync(log, Math.floor(statSync(log).size / 2));
    const refused = await runSvcd(root);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /refusing to start: the state store at .*state\.db has lost \d+ program\(s\) it had acknowledged: 'c\d+' \([0-9a-f-]{36}\)/);
    assert.match(refused.stderr, /c24/, 'the last program created is among those named');
  } finally {
    removeRoot(root);
  }
});

void test('a corrupt state store MANIFEST: svcd refuses, naming the file', async () => {
  const root = tempRoot('svc-fault-manifest-');
  const d = await startDaemon(root);
  try {
    await d.request('POST', '/api/v1/programs', program('one', { autostart: false }));
  } finally {
    await d.stop();
  }
  try {
    const location = join(root, 'data', 'state.db');
    const manifest = readdirSync(location).find((n) => n.startsWith('MANIFEST-'))!;
    flipBytes(join(location, manifest), 12);
    const refused = await runSvcd(root);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, new RegExp(`refusing to start: the state store at .*state\\.db is corrupt \\(Corruption: .*damaged: ${manifest} at byte \\d+`));
  } finally {
    removeRoot(root);
  }
});

/**
 * Findings 12 and 13: stored records that are not what svc writes. Each is quarantined by name
 * (log, `svc storage`, the API), the daemon runs the valid programs, and none of the invalid
 * ones is ever spawned, restart after restart.
 */
void test('invalid stored records are quarantined by name; svcd runs the rest and never spawns them', async () => {
  const root = tempRoot('svc-fault-records-');
  const location = join(root, 'data', 'state.db');
  const markers = ['good', 'grpc', 'twin-a', 'twin-b', 'outside', 'cycle-a', 'cycle-b', 'orphan', 'negative', 'no-intent'];
  const outside = join(root, 'outside.log');
  let d: RunningDaemon | null = await startDaemon(root);
  try {
    assert.equal((await d.request('POST', '/api/v1/programs', program('good'))).status, 201);
    assert.equal(await d.stop(), 0);
    d = null;
    const intent = { run: 'running', start_seq: 0, restart_seq: 0, force: false };
    let n = 0;
    const raw = (config: Record<string, unknown>, more: Record<string, unknown> = {}): [string, string] => {
      const id = `aaaaaaaa-0000-4000-8000-${String(++n).padStart(12, '0')}`;
      return [id, JSON.stringify({ id, config, intent, revision: 1, created_at: n, updated_at: n, ...more })];
    };
    const twinA = raw(program('twin', { args: [fixture('forever.js'), marker('twin-a')] }));
    await putRaw(location, 'programs', [
      raw(program('grpc', { health_check: { type: 'grpc', port: 1 } })),
      twinA,
      raw(program('twin', { args: [fixture('forever.js'), marker('twin-b')] })),
      raw(program('outside', { stdout_logfile: outside })),
      raw(program('cycle-a', { depends_on: ['cycle-b'] })),
      raw(program('cycle-b', { depends_on: ['cycle-a'] })),
      raw(program('orphan', { depends_on: ['ghost'] })),
      raw(program('negative', { startsecs: -5 })),
      raw(program('no-intent'), { intent: undefined }), // JSON leaves the field out
    ]);
    await putRaw(location, 'names', [['twin', twinA[0]]]);

    for (let boot = 1; boot <= 3; boot++) {
      d = await startDaemon(root);
      assert.deepEqual(await names(d), ['good', 'twin'], `boot ${boot}: the valid programs load`);
      await eventually(async () => (await d!.request<Item[]>('GET', '/api/v1/programs')).body.every((p) => p.status === 'Running'), 15_000, 'running');
      const storage = (await d.request<Storage>('GET', '/api/v1/system/storage')).body;
      const reasons = Object.fromEntries(storage.state.quarantined.map((q) => [q.name, q.reason]));
      assert.deepEqual(Object.keys(reasons).sort(), ['cycle-a', 'cycle-b', 'grpc', 'negative', 'no-intent', 'orphan', 'outside', 'twin'].sort());
      assert.match(reasons.grpc, /health_check\.type: must be one of 'http', 'tcp', 'exec'/);
      assert.match(reasons.outside, /stdout_logfile: /);
      assert.match(reasons['cycle-a'], /dependency cycle detected/);
      assert.match(reasons.orphan, /depends_on: unknown service\(s\): ghost/);
      assert.match(reasons.negative, /startsecs: must be >= 0/);
      assert.match(reasons['no-intent'], /intent: is required/);
      assert.match(reasons.twin, /another stored program .* has the name 'twin'/);
      // Running is reported at the spawn; a process shows its own command line only after its exec.
      await eventually(async () => markers.every((m) => processesWith(m).length === (['good', 'twin-a'].includes(m) ? 1 : 0)), 15_000, 'processes exec-ed').catch(() => undefined);
      for (const m of markers) assert.equal(processesWith(m).length, ['good', 'twin-a'].includes(m) ? 1 : 0, `boot ${boot}: processes of ${m}`);
      assert.equal(svcProcesses(root).filter((p) => p.role === 'program').length, 2, `boot ${boot}: no untracked process`);
      assert.equal(existsSync(outside), false, 'nothing is written outside log_dir');
      if (boot === 1) assert.ok(d.stderr.some((l) => /stored program record quarantined/.test(l) && /"name":"grpc"/.test(l)), 'the log names it');
      if (boot === 3) {
        // The way out: the CLI lists them, and discards one for good.
        const cli = await runCli(['--url', d.url, 'storage']);
        assert.equal(cli.code, 0);
        assert.match(cli.stdout, /quarantined: +8 stored record\(s\), not loaded:/);
        assert.match(cli.stdout, /grpc +program 'grpc': health_check\.type/);
        // The second 'twin' loads once the name is free: restored, stopped, under its own id.
        assert.match((await runCli(['--url', d.url, 'storage', 'restore', 'twin'])).stderr, /name: a program named 'twin' exists now/);
        await runCli(['--url', d.url, 'remove', 'twin']);
        const restored = await runCli(['--url', d.url, 'storage', 'restore', 'twin']);
        assert.equal(restored.code, 0, restored.stderr);
        assert.match(restored.stdout, /^restored twin \([0-9a-f-]{36}\), stopped: 'svc start twin' runs it/);
        assert.equal((await d.request<Storage>('GET', '/api/v1/system/storage')).body.state.quarantined.length, 7);
        assert.deepEqual(await names(d), ['good', 'twin']);
        assert.equal(processesWith('twin-b').length, 0, 'it came back stopped');
        // By the name the listing shows (one record has it), or by id.
        const grpc = (await d.request<Storage>('GET', '/api/v1/system/storage')).body.state.quarantined.find((q) => q.name === 'grpc')!;
        const byName = await runCli(['--url', d.url, 'storage', 'discard', 'grpc']);
        assert.equal(byName.code, 0, byName.stderr);
        assert.equal(byName.stdout.trim(), `discarded quarantined record ${grpc.id} (grpc)`);
        const next = (await d.request<Storage>('GET', '/api/v1/system/storage')).body.state.quarantined[0];
        assert.equal((await runCli(['--url', d.url, 'storage', 'discard', next.id])).code, 0);
        assert.equal((await d.request<Storage>('GET', '/api/v1/system/storage')).body.state.quarantined.length, 5);
        break;
      }
      if (boot === 2) await d.crash();
      else await d.stop();
      d = null;
    }
  } finally {
    await d?.stop();
    killMarked(markers);
    removeRoot(root);
  }
});

void test('a running program whose record turns invalid is quarantined; its process is left running, logged, not supervised', async () => {
  const root = tempRoot('svc-fault-victim-');
  const location = join(root, 'data', 'state.db');
  let d: RunningDaemon | null = await startDaemon(root);
  try {
    const { body } = await d.request<{ id: string }>('POST', '/api/v1/programs', program('victim'));
    await eventually(async () => processesWith('victim').length === 1, 15_000, 'victim running');
    const [pid] = processesWith('victim');
    await d.crash();
    d = null;
    const record = { id: body.id, config: program('victim', { startsecs: -1 }), intent: { run: 'running', start_seq: 0, restart_seq: 0, force: false }, revision: 2, created_at: 1, updated_at: 2 };
    await putRaw(location, 'programs', [[body.id, JSON.stringify(record)]]);
    d = await startDaemon(root);
    assert.deepEqual(await names(d), []);
    assert.deepEqual(processesWith('victim'), [pid], 'left running, and no second copy');
    const storage = (await d.request<Storage>('GET', '/api/v1/system/storage')).body;
    assert.match(storage.state.quarantined[0].reason, /program 'victim': startsecs: must be >= 0/);
    await eventually(() => d!.stderr.some((l) => /survives from a previous daemon/.test(l) && l.includes(String(pid))), 5000, 'the log names the process');
  } finally {
    await d?.stop();
    killMarked(['victim']);
    removeRoot(root);
  }
});
