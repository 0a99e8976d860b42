import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually, removeRoot, startDaemon, tempRoot } from '../helpers/daemon.js';

const svc = (name: string, seconds: number) => `[[services]]\nname = "${name}"\ncommand = "/bin/sleep ${seconds}"\nautostart = false\n`;

test('the stacks directory reached through a link that a deploy swaps (current -> releases/2): the new release is applied, the old one pruned', async () => {
  const root = tempRoot();
  for (const release of ['1', '2']) mkdirSync(join(root, 'releases', release, 'stacks'), { recursive: true });
  writeFileSync(join(root, 'releases', '1', 'stacks', 'web.toml'), svc('l-web', 100));
  writeFileSync(join(root, 'releases', '1', 'stacks', 'old.toml'), svc('l-old', 100));
  writeFileSync(join(root, 'releases', '2', 'stacks', 'web.toml'), svc('l-web', 200));
  writeFileSync(join(root, 'releases', '2', 'stacks', 'new.toml'), svc('l-new', 100));
  symlinkSync('releases/1', join(root, 'current'));
  const d = await startDaemon(root, { config: `[server]\nport = 0\n[stacks]\ndir = "${join(root, 'current', 'stacks')}"\n` });
  try {
    const stack = async () => Object.fromEntries(((await d.request('GET', '/api/v1/stack')).body as { services: { name: string; command: string }[] }).services.map((s) => [s.name, s.command]));
    await eventually(async () => (await stack())['l-old'] !== undefined && (await stack())['l-web'] !== undefined, 15_000, 'release 1 applied');
    // The deploy: a new link renamed over the old one (atomic).
    symlinkSync('releases/2', join(root, 'current.tmp'));
    renameSync(join(root, 'current.tmp'), join(root, 'current'));
    await eventually(async () => JSON.stringify(await stack()) === JSON.stringify({ 'l-web': '/bin/sleep 200', 'l-new': '/bin/sleep 100' }), 15_000, 'release 2 applied, release 1 pruned');
    // Edits in the new release are watched; the old release is not the directory any more.
    writeFileSync(join(root, 'releases', '2', 'stacks', 'new.toml'), svc('l-new', 300));
    writeFileSync(join(root, 'releases', '1', 'stacks', 'web.toml'), svc('l-web', 999));
    await eventually(async () => (await stack())['l-new'] === '/bin/sleep 300', 15_000, 'an edit in release 2 applied');
    assert.equal((await stack())['l-web'], '/bin/sleep 200');
  } finally {
    await d.stop();
    removeRoot(root);
  }
});
