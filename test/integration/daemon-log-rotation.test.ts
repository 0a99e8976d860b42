import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually, removeRoot, startDaemon, tempRoot } from '../helpers/daemon.js';

// svcd's own logs are rotated like the programs' (log_max_bytes, log_keep): svcd.log, and
// spawner.log, which svc-spawner appends to for as long as it runs (it outlives svcd).
test('spawner.log is rotated at log_max_bytes like svcd.log and the programs’ logs', async () => {
  const root = tempRoot('svc-daemon-logs-');
  const logs = join(root, 'logs');
  mkdirSync(logs, { recursive: true });
  // What a long-lived spawner accumulated: warnings of earlier daemons.
  writeFileSync(join(logs, 'spawner.log'), 'svc-spawner: an old warning\n'.repeat(4096));
  const d = await startDaemon(root, { config: '[server]\nport = 0\n[storage]\nlog_max_bytes = 65536\nlog_keep = 2\n' });
  try {
    const spawnerLog = join(logs, 'spawner.log');
    await eventually(() => existsSync(`${spawnerLog}.1`), 30_000, 'spawner.log rotated to spawner.log.1 (a pass runs 10 s after start)');
    assert.ok(statSync(spawnerLog).size < 65536, `spawner.log truncated (${statSync(spawnerLog).size} bytes)`);
    assert.ok(statSync(`${spawnerLog}.1`).size >= 4096 * 28, 'the old lines are kept in the copy');
  } finally {
    await d.stop();
    removeRoot(root);
  }
});
