import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually, removeRoot, startDaemon, tempRoot, type RunningDaemon } from '../../helpers/daemon.js';
import { artifactServer } from '../../helpers/artifact-server.js';
import { binary, sha256 } from '../../helpers/ota-binaries.js';

const V1 = binary('v1');
const V2 = binary('v2'.padEnd(4000, '.'));

const ota = async (d: RunningDaemon, id: string) => (await d.request('GET', `/api/v1/programs/${id}`)).body.state.ota;

/**
 * kill -9 of svcd in the middle of an update, at a persisted step, then a new svcd on the same
 * root: the destination is v1 or v2 at every instant (never missing, never partial) and the
 * update completes.
 */
for (const when of ['downloading', 'validating'] as const) {
  test(`kill -9 of svcd while ${when}: the destination stays whole and the update completes after restart`, async () => {
    const root = tempRoot();
    const server = await artifactServer();
    let d = await startDaemon(root);
    try {
      const dir = join(root, 'opt');
      mkdirSync(dir);
      const dest = join(dir, 'app');
      writeFileSync(dest, V1, { mode: 0o755 });
      // Slow enough to catch each phase: a transfer of several seconds, or a long startsecs.
      server.routes.set('/v2', when === 'downloading' ? { body: V2, chunkDelayMs: 20 } : { body: V2 });
      const res = await d.request('POST', '/api/v1/programs', {
        name: 'app',
        command: dest,
        startsecs: when === 'validating' ? 4 : 1,
        artifact: { source: server.url('/v1'), checksum: sha256(V1), destination: dest, verify_timeout: 30 },
      });
      const id = res.body.id as string;
      await eventually(async () => (await ota(d, id))?.phase === 'idle', 10_000, 'inspected');
      await d.request('PUT', `/api/v1/programs/${id}`, { artifact: { source: server.url('/v2'), checksum: sha256(V2), destination: dest, verify_timeout: 30 } });
      await eventually(async () => (await ota(d, id))?.phase === when, 15_000, `phase ${when}`);
      await d.crash();
      const content = readFileSync(dest, 'utf8');
      assert.equal(content, when === 'downloading' ? V1 : V2, 'whole, and of a known version');
      server.routes.set('/v2', { body: V2 });
      d = await startDaemon(root, { config: '[server]\nport = 0\n' });
      const done = await eventually(async () => {
        const o = await ota(d, id);
        return o?.phase === 'idle' && o.last ? o : null;
      }, 30_000, 'the update to complete after the restart');
      assert.equal(done.last.result, 'applied', JSON.stringify(done));
      assert.equal(readFileSync(dest, 'utf8'), V2);
      assert.deepEqual(readdirSync(dir).filter((f) => f.includes('.svc-ota-')), []);
    } finally {
      await d.stop();
      await server.close();
      removeRoot(root);
    }
  });
}
