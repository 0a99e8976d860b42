import { test } from 'node:test';
import assert from 'node:assert/strict';
import { artifactBlocker } from '../../../../controllers/gates/artifact-gate.js';
import type { OtaView } from '../../../../state/ota.js';
import { idleOtaView } from '../../../helpers/ota-fakes.js';
import { processHarness } from '../../../helpers/process-harness.js';

const artifact = { source: 'https://example.com/app', checksum: 'a'.repeat(64), destination: '/opt/app/app' };
const idle: OtaView = idleOtaView('a'.repeat(64));
const installing: OtaView = { ...idle, phase: 'downloading', installed: null, target: 'a'.repeat(64) };

test('the artifact gate: closed until the destination is inspected and while the first install runs', () => {
  assert.equal(artifactBlocker({}, undefined), null, 'no artifact: never gated');
  assert.equal(artifactBlocker({ artifact, cron: '* * * * *' }, undefined), null, 'cron programs are not gated');
  assert.equal(artifactBlocker({ artifact }, undefined), 'waiting for its artifact: the destination is being inspected');
  assert.equal(artifactBlocker({ artifact }, installing), 'waiting for its artifact to be installed (ota downloading)');
  assert.equal(artifactBlocker({ artifact }, { ...installing, phase: 'retry_wait' }), 'waiting for its artifact to be installed (ota retry_wait)');
  assert.equal(artifactBlocker({ artifact }, idle), null, 'installed');
  assert.equal(artifactBlocker({ artifact }, { ...idle, phase: 'downloading', target: 'b'.repeat(64) }), null, 'an update of an installed binary: the old one runs meanwhile');
  assert.equal(artifactBlocker({ artifact }, { ...idle, installed: null, rejected: 'a'.repeat(64) }), null, 'a first install given up: the start fails with its real reason');
});

test('a new program with an artifact on a missing destination starts once it is installed, not before (no Fatal)', async () => {
  const h = await processHarness();
  const id = await h.add({ name: 'app', command: '/opt/app/app', artifact });
  assert.equal(h.status(id), 'Starting');
  assert.equal(h.observed.get(id).detail, 'waiting for its artifact: the destination is being inspected');
  assert.equal(h.os.spawnCount, 0);
  h.observed.update(id, { ota: installing });
  await h.settle();
  assert.equal(h.status(id), 'Starting');
  assert.equal(h.os.spawnCount, 0);
  h.observed.update(id, { ota: { ...installing, phase: 'restarting', installed: 'a'.repeat(64) } });
  await h.settle();
  assert.equal(h.status(id), 'Running');
  assert.deepEqual(h.types(), ['process_started']);
  await h.close();
});
