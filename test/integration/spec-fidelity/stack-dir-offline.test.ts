import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually, removeRoot, startDaemon, tempRoot } from '../../helpers/daemon.js';

/**
 * Issue 22 item 6: the watched stacks directory converges to its listing at every start, so a
 * stack file deleted while svcd is down is noticed at its next start, as the watch would have.
 */
const toml = (...names: string[]) => names.map((n) => `[[services]]\nname = "${n}"\ncommand = "true"\nautostart = false\n`).join('\n');

for (const how of ['graceful', 'kill -9'] as const) {
  test(`a stack file deleted while svcd is stopped (${how}) is pruned at its next start, with its includes; other programs stay`, async () => {
    const root = tempRoot();
    const dir = join(root, 'stacks');
    mkdirSync(join(dir, 'lib'), { recursive: true });
    writeFileSync(join(dir, 'lib', 'shared.toml'), toml('shared'));
    writeFileSync(join(dir, 'gone.toml'), `include = ["lib/shared.toml"]\n${toml('gone-a', 'gone-b')}`);
    writeFileSync(join(dir, 'kept.toml'), toml('kept'));
    let d = await startDaemon(root);
    try {
      const names = async () => ((await d.request('GET', '/api/v1/programs')).body as { name: string }[]).map((p) => p.name).sort();
      await eventually(async () => (await names()).length === 4, 15_000, 'both files applied');
      // Added by hand: not the directory's, so no start-up pass prunes it.
      assert.equal((await d.request('POST', '/api/v1/programs', { name: 'by-hand', command: 'true', autostart: false })).status, 201);
      if (how === 'graceful') assert.equal(await d.stop(), 0);
      else await d.crash();
      rmSync(join(dir, 'gone.toml'));
      d = await startDaemon(root);
      await eventually(async () => JSON.stringify(await names()) === JSON.stringify(['by-hand', 'kept']), 15_000, 'gone.toml pruned at start');
      // The start-up pass covers every file; kept.toml's report may follow the prune by a moment.
      const status = await eventually(async () => {
        const body = (await d.request('GET', '/api/v1/stack/status')).body as { files: { file: string; state: string; lines: string[] }[] };
        return body.files.length === 2 ? body : null;
      }, 15_000, 'both files reported');
      assert.deepEqual(status.files.map((f) => [f.file, f.state, f.lines]), [
        ['gone.toml', 'removed', ['pruned gone-a', 'pruned gone-b', 'pruned shared']],
        ['kept.toml', 'ok', ['unchanged kept']],
      ]);
    } finally {
      await d.stop();
      removeRoot(root);
    }
  });
}
