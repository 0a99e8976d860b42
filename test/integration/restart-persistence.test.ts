import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startDaemon, removeRoot, fixture, tempRoot, eventually, pidAlive } from '../helpers/daemon.js';

test('programs survive a daemon restart and autostart programs come back', async () => {
  const root = tempRoot();
  let d = await startDaemon(root);
  try {
    await d.request('POST', '/api/v1/programs', { name: 'keep', command: process.execPath, args: [fixture('forever.js')] });
    await d.request('POST', '/api/v1/programs', { name: 'manual', command: process.execPath, args: [fixture('forever.js')], autostart: false });
    await eventually(async () => (await d.request('GET', '/api/v1/programs')).body.find((p: { name: string; status: string }) => p.name === 'keep' && p.status === 'Running'));
    assert.equal(await d.stop(), 0, 'graceful shutdown exits 0');
    d = await startDaemon(root);
    const list = await eventually(async () => {
      const l = (await d.request('GET', '/api/v1/programs')).body as { name: string; status: string }[];
      return l.find((p) => p.name === 'keep')?.status === 'Running' ? l : null;
    });
    assert.deepEqual(list.map((p) => p.name).sort(), ['keep', 'manual']);
    assert.equal(list.find((p) => p.name === 'manual')?.status, 'Stopped');
    // Programs start only once the rest of start-up has worked: the boot's system_startup comes
    // before its first process_started (a start that failed late had left programs running).
    // The history is written behind the state (a queue drained in batches): wait for the start's record.
    const bootEvents = async () => {
      const events = (await d.request('GET', '/api/v1/events?order=desc&limit=20')).body as { event: string }[];
      return events.map((e) => e.event).slice(0, events.findIndex((e) => e.event === 'system_startup') + 1).reverse();
    };
    let boot: string[] = [];
    await eventually(async () => (boot = await bootEvents()).length >= 2, 10_000, 'the boot\'s process_started recorded').catch(() => undefined);
    assert.deepEqual(boot, ['system_startup', 'process_started'], 'this boot, oldest first');
  } finally {
    await d.stop();
    removeRoot(root);
  }
});

test('a killed daemon loses nothing: the restarted daemon re-adopts the same process, even killed right after the spawn', async () => {
  const root = tempRoot();
  let d = await startDaemon(root);
  let pid = 0;
  try {
    await d.request('POST', '/api/v1/programs', { name: 'survivor', command: process.execPath, args: [fixture('forever.js')] });
    pid = await eventually(async () => (await d.request('GET', '/api/v1/programs')).body[0]?.pid as number);
    await d.crash(); // at once: the runtime record may not be on disk yet; the process is found by its environment
    assert.ok(pidAlive(pid), 'the program outlives a crashed daemon');
    d = await startDaemon(root);
    const item = (await d.request('GET', '/api/v1/programs')).body[0];
    assert.equal(item.pid, pid, 're-adopted, not started twice');
    assert.equal(item.status, 'Running');
    await d.request('POST', `/api/v1/programs/${item.id}/stop`);
    await eventually(() => !pidAlive(pid), 5000, 'the adopted process to stop');
  } finally {
    await d.stop();
    if (pid && pidAlive(pid)) process.kill(pid, 'SIGKILL');
    removeRoot(root);
  }
});

test('svcd refuses to start with a bad config, naming the file, key and line', async () => {
  const root = tempRoot();
  try {
    await assert.rejects(startDaemon(root, { config: '[server]\nport = 0\nhots = "x"\n' }), /conf\/svc\.toml:3: unknown key server\.hots/);
  } finally {
    removeRoot(root);
  }
});

test('a killed daemon keeps health verdicts: the re-adopted process is Unhealthy at once and its turn is not recorded twice', async () => {
  const root = tempRoot();
  let d = await startDaemon(root);
  let pid = 0;
  try {
    const check = { type: 'exec', command: 'false', interval_secs: 1, failure_threshold: 3 };
    const created = await d.request('POST', '/api/v1/programs', { name: 'sick', command: process.execPath, args: [fixture('forever.js')], health_check: check });
    const id = created.body.id as string;
    const unhealthy = async () => ((await d.request('GET', `/api/v1/events?program_id=${id}&event_type=process_unhealthy`)).body as unknown[]).length;
    await eventually(async () => (await unhealthy()) === 1, 15_000, 'Unhealthy recorded');
    pid = (await d.request('GET', `/api/v1/programs/${id}`)).body.pid as number;
    await d.crash();
    d = await startDaemon(root);
    const item = (await d.request('GET', `/api/v1/programs/${id}`)).body as { pid: number; status: string };
    assert.equal(item.pid, pid, 're-adopted');
    // Without the kept verdict it showed Running until three probes (2 s) had failed again.
    assert.equal(item.status, 'Unhealthy');
    await eventually(async () => ((await d.request('GET', `/api/v1/programs/${id}`)).body.state.health?.failures ?? 0) >= 5, 15_000, 'probed again after the restart');
    assert.equal(await unhealthy(), 1, 'one turn to Unhealthy, recorded (and notified) once');
  } finally {
    await d.stop();
    if (pid && pidAlive(pid)) process.kill(pid, 'SIGKILL');
    removeRoot(root);
  }
});
