import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { chownSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually, useDaemon } from '../../helpers/daemon.js';
import { runCli } from '../../helpers/cli.js';
import { artifactServer } from '../../helpers/artifact-server.js';
import { tarArchive, zipArchive } from '../../helpers/archives.js';
import { binary, freePort, sha256 } from '../../helpers/ota-binaries.js';

const d = useDaemon();
let server: Awaited<ReturnType<typeof artifactServer>>;
before(async () => (server = await artifactServer()));
after(() => server.close());

const V1 = binary('v1');
const V2 = binary('v2');
let n = 0;

/** A program whose command is its artifact's destination (a fresh directory), v1 installed, running. */
async function installed(extra: { artifact?: Record<string, unknown>; program?: Record<string, unknown> } = {}) {
  const name = `app${++n}`;
  const dir = join(d.root, 'opt', name);
  mkdirSync(dir, { recursive: true });
  const dest = join(dir, 'app');
  writeFileSync(dest, V1, { mode: 0o750 });
  const res = await d.request('POST', '/api/v1/programs', {
    name,
    command: dest,
    startsecs: 1,
    artifact: { source: server.url(`/${name}/v1`), checksum: sha256(V1), destination: dest, verify_timeout: 15, ...extra.artifact },
    ...extra.program,
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  const id = res.body.id as string;
  await eventually(async () => (await detail(id)).state.ota?.phase === 'idle' && (await detail(id)).pid, 10_000, 'inspected and running');
  return { id, name, dest, dir };
}

const detail = async (id: string) => (await d.request('GET', `/api/v1/programs/${id}`)).body;
const ota = async (id: string) => (await detail(id)).state.ota;
const settledOta = (id: string, ms = 20_000) => eventually(async () => ((await ota(id))?.phase === 'idle' && (await ota(id))?.last ? ota(id) : null), ms, 'the update to finish');
const events = async (id: string) => ((await d.request('GET', `/api/v1/programs/${id}/events?limit=1000`)).body as { event: string; msg: string }[]).filter((e) => e.event.startsWith('ota_'));
/** The ota_* event types once `count` are in the history (it is written behind the state the API shows). */
const otaEvents = async (id: string, count: number) => (await eventually(async () => ((await events(id)).length >= count ? events(id) : null), 5000, `${count} ota events`)).map((e) => e.event);
const temps = (dir: string) => readdirSync(dir).filter((f) => f.includes('.svc-ota-'));

async function update(id: string, name: string, artifact: Record<string, unknown>) {
  const current = (await detail(id)).config.artifact;
  const res = await d.request('PUT', `/api/v1/programs/${id}`, { artifact: { ...current, ...artifact } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
}

test('plain binary: svc update --set artifact.checksum swaps the binary and restarts into it', async () => {
  const { id, name, dest } = await installed();
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chownSync(dest, 65534, 65534); // svcd runs as root here: the owner must survive too
  const before = await detail(id);
  server.routes.set(`/${name}/v2`, { body: V2 });
  const cli = await runCli(['update', name, '--set', `artifact.checksum=${sha256(V2)}`, '--set', `artifact.source=${server.url(`/${name}/v2`)}`], { SVC_URL: d.url });
  assert.equal(cli.code, 0, cli.stderr);
  assert.match(cli.stdout, /OTA update/);
  const done = await settledOta(id);
  assert.equal(done.last.result, 'applied', JSON.stringify(done));
  assert.equal(readFileSync(dest, 'utf8'), V2);
  assert.equal(statSync(dest).mode & 0o777, 0o750, 'mode kept');
  if (asRoot) assert.deepEqual([statSync(dest).uid, statSync(dest).gid], [65534, 65534], 'owner kept');
  assert.equal(readFileSync(`${dest}.svc-backup`, 'utf8'), V1);
  const after = await detail(id);
  assert.notEqual(after.pid, before.pid);
  assert.equal(after.config.artifact.verify_timeout, 15, 'the rest of the artifact is kept');
  // startsecs (1 s) counts from the spawn: a loaded machine may start node later than that.
  let logs: string[] = [];
  await eventually(async () => {
    logs = (await d.request('GET', `/api/v1/programs/${id}/logs`)).body.logs.map((l: { content: string }) => l.content);
    return logs.includes('version v2');
  }, 10_000, 'the v2 process printing its version').catch((err: Error) => assert.fail(`${err.message}\n${logs.join('\n')}`));
  assert.deepEqual(await otaEvents(id, 3), ['ota_started', 'ota_swapped', 'ota_applied']);
  const status = await runCli(['ota', 'status'], { SVC_URL: d.url });
  assert.match(status.stdout, new RegExp(`${name}\\s+idle\\s+${sha256(V2).slice(0, 12)}\\s+-\\s+applied`));
  const info = await runCli(['info', name], { SVC_URL: d.url });
  assert.match(info.stdout, /ota:\s+idle\s+installed: [0-9a-f]{12}/);
  assert.match(info.stdout, /last:\s+applied at .*validated: up for startsecs/);
  const metrics = (await fetch(`${d.url}/metrics`).then((r) => r.text())).split('\n');
  assert.ok(metrics.some((l) => l.startsWith(`svc_ota_updates_total{name="${name}",id="${id}",result="applied"} 1`)), 'counted in /metrics');
});

test('first install: a new program whose destination does not exist yet starts from the installed artifact, never Fatal', async () => {
  const name = `app${++n}`;
  mkdirSync(join(d.root, 'opt', name), { recursive: true }); // its directory must exist (docs/ota.md); the file does not
  const dest = join(d.root, 'opt', name, 'app');
  server.routes.set(`/${name}/v1`, { body: V1 });
  const res = await d.request('POST', '/api/v1/programs', {
    name,
    command: dest,
    startsecs: 1,
    artifact: { source: server.url(`/${name}/v1`), checksum: sha256(V1), destination: dest, verify_timeout: 15 },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  const id = res.body.id as string;
  // Before the artifact gate the process spawned before the download: Fatal ("command not found").
  const settled = await eventually(async () => {
    const p = await detail(id);
    return p.status === 'Fatal' || (p.state.ota?.phase === 'idle' && p.state.ota?.last) ? p : null;
  }, 20_000, 'the first install to end');
  assert.notEqual(settled.status, 'Fatal', JSON.stringify(settled.state.last_exit));
  assert.equal(settled.state.ota.last.result, 'applied', JSON.stringify(settled.state.ota));
  await eventually(async () => (await detail(id)).status === 'Running', 10_000, 'running the installed binary');
  const history = ((await d.request('GET', `/api/v1/programs/${id}/events?limit=1000`)).body as { event: string }[]).map((e) => e.event);
  assert.ok(!history.includes('process_fatal') && !history.includes('process_exit'), history.join(', '));
});

test('.tar.gz and .zip: the payload named like the destination is installed', async () => {
  for (const [kind, build] of [['tgz', (e: Parameters<typeof zipArchive>[0]) => tarArchive(e, true)], ['zip', zipArchive]] as const) {
    const { id, name, dest } = await installed({ artifact: { extract: true } });
    const archive = build([{ path: 'release/README.md', data: '# app v2' }, { path: 'release/app', data: V2 }]);
    server.routes.set(`/${name}/app.${kind}`, { body: archive });
    await update(id, name, { source: server.url(`/${name}/app.${kind}`), checksum: sha256(archive) });
    const done = await settledOta(id);
    assert.equal(done.last.result, 'applied', `${kind}: ${JSON.stringify(done)}`);
    assert.equal(readFileSync(dest, 'utf8'), V2);
    assert.equal(statSync(dest).mode & 0o777, 0o750);
  }
});

test('a corrupt artifact changes nothing: same file, same pid, no temp file, an event with both digests', async () => {
  const { id, name, dest, dir } = await installed();
  const pid = (await detail(id)).pid;
  server.routes.set(`/${name}/v2`, { body: `${V2}tampered` });
  await update(id, name, { source: server.url(`/${name}/v2`), checksum: sha256(V2) });
  const failed = await eventually(async () => (await events(id)).find((e) => e.event === 'ota_failed'), 10_000, 'ota_failed');
  assert.match(failed.msg, new RegExp(`checksum mismatch: expected ${sha256(V2)}, got ${sha256(`${V2}tampered`)}`));
  assert.equal(readFileSync(dest, 'utf8'), V1);
  assert.equal((await detail(id)).pid, pid);
  assert.deepEqual(temps(dir), []);
  assert.equal((await ota(id)).phase, 'retry_wait');
});

test('a slow artifact is cut at download_timeout', async () => {
  const { id, name, dest, dir } = await installed({ artifact: { download_timeout: 1 } });
  server.routes.set(`/${name}/v2`, { body: V2.repeat(20), chunkDelayMs: 100 });
  await update(id, name, { source: server.url(`/${name}/v2`), checksum: sha256(V2.repeat(20)) });
  const failed = await eventually(async () => (await events(id)).find((e) => e.event === 'ota_failed'), 10_000, 'ota_failed');
  assert.match(failed.msg, /download failed: download_timeout \(1 s\) exceeded/);
  assert.equal(readFileSync(dest, 'utf8'), V1);
  assert.deepEqual(temps(dir), []);
});

test('a binary that fails its health check is rolled back by itself within verify_timeout', async () => {
  const port = await freePort();
  const { id, name, dest } = await installed({
    artifact: { verify_timeout: 10 },
    program: { env: { PORT: String(port) }, health_check: { type: 'tcp', port, interval_secs: 0.3, timeout_secs: 1, failure_threshold: 2 } },
  });
  await eventually(async () => (await detail(id)).status === 'Healthy', 10_000, 'Healthy on v1');
  const bad = binary('v2-broken', { listen: false });
  server.routes.set(`/${name}/bad`, { body: bad });
  await update(id, name, { source: server.url(`/${name}/bad`), checksum: sha256(bad) });
  const done = await settledOta(id, 30_000);
  assert.equal(done.last.result, 'rolled_back', JSON.stringify(done));
  assert.match(done.last.reason, /health check failing/);
  assert.equal(done.rejected, sha256(bad));
  assert.equal(readFileSync(dest, 'utf8'), V1);
  // The rejected checksum is still the desired one, but nothing is being installed: no TARGET.
  const status = await runCli(['ota', 'status'], { SVC_URL: d.url });
  assert.match(status.stdout, new RegExp(`${name}\\s+idle\\s+${sha256(V1).slice(0, 12)}\\s+-\\s+rolled_back`));
  await eventually(async () => (await detail(id)).status === 'Healthy', 10_000, 'Healthy on v1 again');
  assert.deepEqual(await otaEvents(id, 4), ['ota_started', 'ota_swapped', 'ota_failed', 'ota_rolled_back']);
});

test('svc ota rollback restores the previous binary; with no backup left it says so', async () => {
  const { id, name, dest } = await installed();
  server.routes.set(`/${name}/v2`, { body: V2 });
  await update(id, name, { source: server.url(`/${name}/v2`), checksum: sha256(V2) });
  assert.equal((await settledOta(id)).last.result, 'applied');
  const pid = (await detail(id)).pid;
  const res = await runCli(['ota', 'rollback', name], { SVC_URL: d.url });
  assert.equal(res.code, 0, res.stderr);
  assert.match(res.stdout, /rolled back .*restored [0-9a-f]{12} and restarted the program/);
  assert.equal(readFileSync(dest, 'utf8'), V1);
  await eventually(async () => (await detail(id)).pid && (await detail(id)).pid !== pid, 10_000, 'restarted');
  const again = await runCli(['ota', 'rollback', name], { SVC_URL: d.url });
  assert.equal(again.code, 1);
  assert.match(again.stderr, /nothing to roll back to/);
});

test('validation: http off loopback and signal policies without a health check are 400s naming the field', async () => {
  const base = { name: 'bad-ota', command: '/bin/true' };
  const artifact = { source: 'http://example.com/app', checksum: 'a'.repeat(64), destination: '/opt/x/app' };
  const r1 = await d.request('POST', '/api/v1/programs', { ...base, artifact });
  assert.equal(r1.status, 400);
  assert.match(r1.body.message, /program 'bad-ota': artifact.source: must use https/);
  const r2 = await d.request('POST', '/api/v1/programs', { ...base, artifact: { ...artifact, source: 'https://example.com/app', restart_policy: 'signal:hup' } });
  assert.equal(r2.status, 400);
  assert.match(r2.body.message, /artifact.restart_policy: 'signal:hup' requires an enabled health_check/);
  const r3 = await d.request('POST', '/api/v1/programs', { ...base, artifact: { ...artifact, destination: 'relative/app' } });
  assert.match(r3.body.message, /artifact.destination: must be an absolute path/);
});

test('a stack apply with a new checksum updates the binary; other stack changes do not', async () => {
  const name = 'stacked-app';
  const dir = join(d.root, 'opt', name);
  mkdirSync(dir, { recursive: true });
  const dest = join(dir, 'app');
  writeFileSync(dest, V1, { mode: 0o755 });
  server.routes.set(`/${name}/v2`, { body: V2 });
  const service = (checksum: string, extra: Record<string, unknown> = {}) => ({
    name,
    command: dest,
    startsecs: 1,
    artifact: { source: server.url(`/${name}/v2`), checksum, destination: dest, verify_timeout: 15 },
    ...extra,
  });
  const apply = async (svc: Record<string, unknown>) => {
    const res = await d.request('PUT', '/api/v1/stack?source=stack:ota', { services: [svc] });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.lines as string[];
  };
  await apply(service(sha256(V1)));
  const id = (await d.request('GET', '/api/v1/programs')).body.find((p: { name: string }) => p.name === name).id as string;
  await eventually(async () => (await ota(id))?.phase === 'idle', 10_000, 'inspected');
  assert.deepEqual(await apply(service(sha256(V1), { priority: 5 })), [`updated ${name}`]);
  assert.equal(server.hits.get(`/${name}/v2`) ?? 0, 0, 'other fields start no download');
  assert.deepEqual(await apply(service(sha256(V2), { priority: 5 })), [`updated ${name}`], 'no restart by the stack: OTA restarts');
  const done = await settledOta(id);
  assert.equal(done.last.result, 'applied', JSON.stringify(done));
  assert.equal(readFileSync(dest, 'utf8'), V2);
});

test('manual: the binary is swapped, the process keeps running with a restart pending until svc restart', async () => {
  const { id, name, dest } = await installed({ artifact: { restart_policy: 'manual' } });
  const pid = (await detail(id)).pid;
  server.routes.set(`/${name}/v2`, { body: V2 });
  await update(id, name, { source: server.url(`/${name}/v2`), checksum: sha256(V2) });
  await eventually(async () => (await ota(id))?.restart_pending, 10_000, 'restart pending');
  assert.equal(readFileSync(dest, 'utf8'), V2);
  assert.equal((await detail(id)).pid, pid, 'not restarted');
  const info = await runCli(['info', name], { SVC_URL: d.url });
  assert.match(info.stdout, new RegExp(`ota:\\s+restarting\\s+installed: ${sha256(V2).slice(0, 12)}\\s+restart pending \\(restart_policy = manual\\)`));
  const restart = await runCli(['restart', name], { SVC_URL: d.url });
  assert.equal(restart.code, 0, restart.stderr);
  const done = await settledOta(id);
  assert.equal(done.last.result, 'applied');
  assert.equal(done.restart_pending, false);
});

test('a link planted at the temporary download name is replaced, not written through: the file it points to is untouched', async () => {
  // Anyone who can write the destination's folder (often the program's own user) knows the name
  // from SVC_PROGRAM_ID; svcd (root) used to write the artifact into the link's target and
  // then give it the destination's mode and owner.
  const { id, name, dest, dir } = await installed();
  const victim = join(d.root, `victim-${name}`);
  writeFileSync(victim, 'secret\n', { mode: 0o600 });
  symlinkSync(victim, join(dir, `.app.svc-ota-${id.slice(0, 8)}.download`));
  server.routes.set(`/${name}/v2`, { body: V2 });
  await update(id, name, { source: server.url(`/${name}/v2`), checksum: sha256(V2) });
  const done = await settledOta(id);
  assert.equal(readFileSync(victim, 'utf8'), 'secret\n');
  assert.equal(statSync(victim).mode & 0o777, 0o600);
  assert.equal(done.last.result, 'applied', JSON.stringify(done));
  assert.ok(lstatSync(dest).isFile(), 'the destination is a regular file, not the link');
  assert.equal(readFileSync(dest, 'utf8'), V2);
});
