import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryLevel } from 'memory-level';
import { validateCreate, validateUpdate } from '../../../../state/schema/validate.js';
import { SvcError } from '../../../../state/errors.js';
import { loadConfig } from '../../../../conf/load-config.js';
import { dottedRoots, mergeWithCurrent, setField } from '../../../../tui/cli/dotted-fields.js';
import { OtaMetrics } from '../../../../api/metrics/ota-metrics.js';
import { SvcMetrics } from '../../../../api/metrics/metrics.js';
import { ObservedRegistry } from '../../../../state/observed.js';
import { ProgramStore } from '../../../../state/store.js';
import { freshRecord, parseRecord } from '../../../../controllers/ota/record.js';
import { parsePolicy } from '../../../../controllers/ota/plan-types.js';
import { otaPaths, tempFiles } from '../../../../controllers/ota/paths.js';
import { retryDelayMs } from '../../../../controllers/ota/plan-attempts.js';
import { describeDownloadError } from '../../../../controllers/ota/downloader.js';
import { idleOtaView } from '../../../helpers/ota-fakes.js';

const ctx = { logDir: '/var/log/svc' };
const A = 'a'.repeat(64);
const reason = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof SvcError);
    return err.message;
  }
  return assert.fail('expected a 400');
};

test('artifact validation: loopback http, a file destination, verify_timeout longer than startsecs without a health check', () => {
  const base = { name: 'app', command: '/opt/app' };
  const artifact = { source: 'http://127.0.0.1:8080/app', checksum: A, destination: '/opt/app' };
  for (const source of ['http://localhost/app', 'http://[::1]:9/app', 'http://127.1.2.3/app', 'https://example.com/app']) {
    assert.equal(validateCreate({ ...base, artifact: { ...artifact, source } }, ctx).artifact?.source, source);
  }
  for (const source of ['http://10.0.0.1/app', 'http://example.com/app', 'ftp://127.0.0.1/app']) {
    assert.match(reason(() => validateCreate({ ...base, artifact: { ...artifact, source } }, ctx)), /program 'app': artifact.source/);
  }
  assert.match(reason(() => validateCreate({ ...base, artifact: { ...artifact, destination: '/opt/' } }, ctx)), /artifact.destination: must name a file/);
  assert.match(
    reason(() => validateCreate({ ...base, startsecs: 60, artifact }, ctx)),
    /artifact.verify_timeout: must be longer than startsecs \(60 s\) when there is no health check/,
  );
  assert.ok(validateCreate({ ...base, startsecs: 60, artifact: { ...artifact, verify_timeout: 0 } }, ctx), '0 disables validation');
  assert.ok(validateCreate({ ...base, startsecs: 60, artifact, health_check: { type: 'tcp', port: 80 } }, ctx), 'a health check decides instead');
  const current = validateCreate({ ...base, artifact }, ctx);
  assert.match(reason(() => validateUpdate({ artifact: { ...artifact, restart_policy: 'signal:usr1' } }, current, ctx)), /artifact.restart_policy: 'signal:usr1' requires an enabled health_check/);
  assert.match(reason(() => validateUpdate({ artifact: { ...artifact, restart_policy: 'signal:kill' } }, current, ctx)), /artifact.restart_policy: must be/);
});

test('[ota] keys: defaults, bounds, ca_file resolved under the root and "" for none', () => {
  const root = mkdtempSync(join(tmpdir(), 'svc-conf-'));
  try {
    const defaults = loadConfig(root);
    assert.deepEqual(defaults.ota, { max_download_bytes: 536870912, max_extract_bytes: 1073741824, max_attempts: 5, ca_file: '' });
    mkdirSync(join(root, 'conf'));
    writeFileSync(join(root, 'conf', 'svc.toml'), '[ota]\nca_file = "certs/ca.pem"\nmax_attempts = 2\n');
    assert.equal(loadConfig(root).ota.ca_file, join(root, 'certs/ca.pem'));
    writeFileSync(join(root, 'conf', 'svc.toml'), '[ota]\nmax_attempts = 0\n');
    assert.throws(() => loadConfig(root), /svc.toml:2: ota.max_attempts: must be at least 1/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('--set a.b=value sets one field; on update the object keeps its other fields', () => {
  const patch: Record<string, unknown> = {};
  setField(patch, 'artifact.checksum', 'b'.repeat(64));
  setField(patch, 'startsecs', 3);
  assert.deepEqual(patch, { artifact: { checksum: 'b'.repeat(64) }, startsecs: 3 });
  const roots = dottedRoots(['artifact.checksum=x', 'startsecs=3']);
  assert.deepEqual([...roots], ['artifact']);
  mergeWithCurrent(patch, { artifact: { source: 'https://x/app', checksum: A, destination: '/opt/app' } }, roots);
  assert.deepEqual(patch.artifact, { source: 'https://x/app', checksum: 'b'.repeat(64), destination: '/opt/app' });
});

test('OTA metrics count each new result once, not results restored at start-up', async () => {
  const store = await ProgramStore.fromDb(new MemoryLevel());
  const [r] = await store.create([{ name: 'app', command: '/opt/app' }]);
  const observed = new ObservedRegistry();
  const since = 1_000_000;
  const view = (result: 'applied' | 'failed', at: number) => ({ ...idleOtaView(A), last: { result, reason: 'x', at, checksum: A } });
  const metrics = new SvcMetrics({ defaultMetrics: false });
  const ota = new OtaMetrics(store, observed, since);
  metrics.add(ota);
  observed.update(r.id, { ota: view('failed', since - 1) }); // restored from disk
  observed.update(r.id, { ota: view('applied', since + 5) });
  observed.update(r.id, { ota: view('applied', since + 5), cpu_usage: 3 }); // same result seen again
  const text = await metrics.render();
  assert.match(text, new RegExp(`svc_ota_updates_total\\{name="app",id="${r.id}",result="applied"\\} 1`));
  assert.doesNotMatch(text, /result="failed"/);
  assert.match(text, /svc_ota_in_progress\{name="app",id="[^"]+"\} 0/);
  ota.close();
  await store.close();
});


test('status records: a stored record is checked field by field', () => {
  const r = freshRecord('/opt/app', { checksum: A, digest: A }, 0);
  assert.deepEqual(parseRecord(JSON.parse(JSON.stringify(r))), r);
  assert.equal(parseRecord({ ...r, phase: 'dancing' }), null);
  assert.equal(parseRecord({ ...r, destination: 'relative' }), null);
  assert.equal(parseRecord({ ...r, installed: { checksum: 'zz', digest: A } }), null);
  assert.equal(parseRecord(null), null);
});

test('restart policies, temp file names and the retry backoff', () => {
  assert.deepEqual(parsePolicy(undefined), { kind: 'immediate' });
  assert.deepEqual(parsePolicy('manual'), { kind: 'manual' });
  assert.deepEqual(parsePolicy('signal'), { kind: 'signal', signal: 'SIGHUP' });
  assert.deepEqual(parsePolicy('signal:usr2'), { kind: 'signal', signal: 'SIGUSR2' });
  const p = otaPaths('/opt/app/bin/app', '0123456789abcdef');
  assert.equal(p.download, '/opt/app/bin/.app.svc-ota-01234567.download');
  assert.equal(p.backup, '/opt/app/bin/app.svc-backup');
  assert.ok(!tempFiles('/opt/app/bin/app', '0123456789abcdef').includes(p.backup), 'cleanup never removes the backup');
  assert.deepEqual([1, 2, 3, 4, 5, 6, 9].map(retryDelayMs), [10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000]);
});

test('a download error names its code once: file system errors carry it in their message already', () => {
  const fsError = Object.assign(new Error("ENOENT: no such file or directory, open '/srv/app.v2'"), { code: 'ENOENT' });
  assert.equal(describeDownloadError(fsError), "ENOENT: no such file or directory, open '/srv/app.v2'");
  const fetchError = Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }) });
  assert.equal(describeDownloadError(fetchError), 'ECONNREFUSED: fetch failed: connect ECONNREFUSED 127.0.0.1:9');
});
