import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiClient } from '../../../tui/client/http.js';
import { resolveNamed } from '../../../tui/cli/programs.js';

/** A daemon listing `programs`; the detail requests it gets are counted. */
function daemon(programs: Record<string, unknown>[], groups: Record<string, string | null> = {}) {
  const details: string[] = [];
  const client = {
    get: (path: string) => {
      if (path === '/api/v1/programs') return Promise.resolve(programs);
      const id = path.split('/').pop()!;
      details.push(id);
      return Promise.resolve({ id, config: { group_name: groups[id] ?? undefined } });
    },
  } as unknown as ApiClient;
  return { client, details };
}

void test('GROUP:NAME is checked against the list\'s group_name, without a request per program', async () => {
  const { client, details } = daemon([
    { id: 'a', name: 'web1', group_name: 'web' },
    { id: 'b', name: 'db', group_name: null },
  ]);
  assert.deepEqual(
    (await resolveNamed(client, { refs: ['db'], grouped: [{ group: 'web', ref: 'web1' }] })).map((p) => p.name),
    ['db', 'web1'],
  );
  assert.deepEqual(details, []);
  await assert.rejects(resolveNamed(client, { refs: [], grouped: [{ group: 'data', ref: 'web1' }] }), /program 'web1' is not in group 'data' \(its group: web\)/);
});

void test('an older svcd without group_name in its list: the program\'s detail says its group', async () => {
  const { client, details } = daemon([{ id: 'a', name: 'web1' }], { a: 'web' });
  assert.deepEqual(
    (await resolveNamed(client, { refs: [], grouped: [{ group: 'web', ref: 'web1' }] })).map((p) => p.id),
    ['a'],
  );
  assert.deepEqual(details, ['a']);
  await assert.rejects(resolveNamed(client, { refs: [], grouped: [{ group: 'db', ref: 'web1' }] }), /its group: web/);
});
