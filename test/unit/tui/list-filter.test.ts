import { test } from 'node:test';
import assert from 'node:assert/strict';
import { listFilter } from '../../../tui/cli/list-filter.js';
import { CliError } from '../../../tui/cli/errors.js';

const ID = '00000000-0000-4000-8000-000000000001';
const programs = [
  { id: ID, name: 'web-1', group_name: 'web', status: 'Running' as const },
  { id: 'b', name: 'web-2', group_name: 'web', status: 'Fatal' as const },
  { id: 'c', name: 'db', group_name: null, status: 'Backoff' as const },
  { id: 'd', name: 'web.old', group_name: null, status: 'Stopping' as const, removed: true as const },
];
const names = (patterns: string[], flags = {}) => programs.filter(listFilter(patterns, flags)).map((p) => p.name);

void test('svc list patterns: names with * and ?, ids, GROUP:* and GROUP:NAME; any pattern may match', () => {
  assert.deepEqual(names([]), ['web-1', 'web-2', 'db', 'web.old']);
  assert.deepEqual(names(['web*']), ['web-1', 'web-2', 'web.old']);
  assert.deepEqual(names(['web-?']), ['web-1', 'web-2']);
  assert.deepEqual(names(['web.*']), ['web.old'], 'a dot is a dot');
  assert.deepEqual(names(['db', ID]), ['web-1', 'db']);
  assert.deepEqual(names([ID.toUpperCase()]), ['web-1'], 'an id in any case, as svc restart takes it');
  assert.deepEqual(names([`web:${ID}`]), ['web-1'], 'GROUP:ID, as svc restart takes it');
  assert.deepEqual(names(['web:*']), ['web-1', 'web-2']);
  assert.deepEqual(names(['web:*-2']), ['web-2']);
  assert.deepEqual(names(['nothing']), []);
  assert.deepEqual(names(['web-[12]']), ['web-1', 'web-2'], 'a class, as reactions take it');
  assert.throws(() => listFilter(['web-[z-a]'], {}), (err: unknown) => err instanceof CliError && err.exitCode === 2 && /^'web-\[z-a\]': not a valid pattern/.test(err.message));
  assert.throws(() => listFilter([':x'], {}), (err: unknown) => err instanceof CliError && err.exitCode === 2 && /':x': use GROUP:\* or GROUP:NAME/.test(err.message));
});

void test('svc list --status (comma-separated, any case, Removing as shown) and --group narrow the patterns', () => {
  assert.deepEqual(names([], { status: 'fatal,Backoff' }), ['web-2', 'db']);
  assert.deepEqual(names([], { status: 'Removing' }), ['web.old'], 'a removed program still stopping is Removing, not Stopping');
  assert.deepEqual(names([], { status: 'Stopping' }), []);
  assert.deepEqual(names(['web*'], { status: 'Running' }), ['web-1']);
  assert.deepEqual(names([], { group: 'web' }), ['web-1', 'web-2']);
  assert.throws(() => listFilter([], { status: 'Fatl' }), (err: unknown) => err instanceof CliError && err.exitCode === 2 && /^--status: unknown status 'Fatl' \(one of: Stopped, Starting, .*, Removing\)$/.test(err.message));
  assert.throws(() => listFilter([], { status: ' , ' }), /--status: name one or more statuses/);
});
