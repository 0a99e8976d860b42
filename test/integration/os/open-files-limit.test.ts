// [supervisor] limit_nofile with a real svcd: Node raised svcd's own soft open-files limit to
// the hard one; programs start with 1024 (capped at the hard limit) unless the key says
// otherwise, through the spawner and through Node's child_process alike; 0 leaves svcd's own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, removeRoot, startDaemon, tempRoot } from '../../helpers/daemon.js';
import { openFilesLimits } from '../../helpers/spawner.js';

const cases = [
  ['the spawner, default', {}, '', (hard: string) => String(Math.min(1024, Number(hard)))],
  ["Node's child_process, default", { SVC_SPAWNER: 'off' }, '', (hard: string) => String(Math.min(1024, Number(hard)))],
  ['the spawner, limit_nofile = 700', {}, 'limit_nofile = 700\n', () => '700'],
  ["the spawner, limit_nofile = 0: svcd's own", {}, 'limit_nofile = 0\n', (_hard: string, own: string) => own],
  ["Node's child_process, limit_nofile = 0: svcd's own", { SVC_SPAWNER: 'off' }, 'limit_nofile = 0\n', (_hard: string, own: string) => own],
] as const;

for (const [what, env, supervisor, expected] of cases) {
  test(`programs' open-files limit: ${what}`, async () => {
    const root = tempRoot();
    const d = await startDaemon(root, { env: { ...env }, config: `[server]\nport = 0\n[supervisor]\n${supervisor}` });
    try {
      const [own, hard] = openFilesLimits(d.proc.pid!);
      assert.equal(own, hard, 'Node raised svcd to its hard limit');
      const id = (await d.request('POST', '/api/v1/programs', { name: 'limits', command: 'sh', args: ['-c', 'echo "limits $(ulimit -Sn) $(ulimit -Hn)"; exec sleep 3600'] })).body.id as string;
      const line = await eventually(async () => {
        const logs = (await d.request('GET', `/api/v1/programs/${id}/logs?tail=5`)).body.logs as { content: string }[];
        return logs.find((l) => l.content.startsWith('limits '))?.content ?? null;
      }, 10_000, 'the limits line');
      assert.equal(line, `limits ${expected(hard, own)} ${hard}`);
    } finally {
      await d.stop();
      removeRoot(root);
    }
  });
}
