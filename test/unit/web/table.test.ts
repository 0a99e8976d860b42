import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sortRows, toggleSort, toneCounts, visibleRows } from '../../../web/src/logic/table.js';
import { healthLabel } from '../../../web/src/logic/status.js';
import { row } from './rows.js';

const names = (rows: { name: string }[]) => rows.map((r) => r.name);

test('sorting by status puts trouble first, ties by name; descending flips the key only', () => {
  const rows = [row('b', { status: 'Stopped' }), row('a', { status: 'Running' }), row('c', { status: 'Fatal' }), row('d', { status: 'Backoff' }), row('e', { status: 'Running' })];
  assert.deepEqual(names(sortRows(rows, { column: 'status', desc: false })), ['c', 'd', 'a', 'e', 'b']);
  assert.deepEqual(names(sortRows(rows, { column: 'status', desc: true })), ['b', 'a', 'e', 'd', 'c']);
});

test('numeric columns sort by value; uptime counts only live processes; next run puts unscheduled last', () => {
  const rows = [row('a', { mem_usage: 300, started_at: 50 }), row('b', { mem_usage: 20, started_at: 10 }), row('c', { mem_usage: 1000, status: 'Stopped', started_at: 1 })];
  assert.deepEqual(names(sortRows(rows, { column: 'mem', desc: true })), ['c', 'a', 'b']);
  assert.deepEqual(names(sortRows(rows, { column: 'uptime', desc: true })), ['b', 'a', 'c']);
  const cron = [row('x'), row('y', { next_fire_at: 5000 }), row('z', { next_fire_at: 2000 })];
  assert.deepEqual(names(sortRows(cron, { column: 'next', desc: false })), ['z', 'y', 'x']);
});

test('toggleSort flips the same column and starts another ascending', () => {
  assert.deepEqual(toggleSort({ column: 'name', desc: false }, 'name'), { column: 'name', desc: true });
  assert.deepEqual(toggleSort({ column: 'name', desc: true }, 'cpu'), { column: 'cpu', desc: false });
});

test('the filter matches name, group or source (any case) or the exact status, and the tone chips', () => {
  const rows = [row('Web-1', { source: 'stack:web.toml' }), row('api', { status: 'Fatal', group_name: 'backend' }), row('db', { source: 'cli:add', status: 'Stopped' })];
  const sort = { column: 'name', desc: false } as const;
  assert.deepEqual(names(visibleRows(rows, { text: 'web', tone: 'all' }, sort)), ['Web-1']);
  assert.deepEqual(names(visibleRows(rows, { text: 'Backend', tone: 'all' }, sort)), ['api']);
  assert.deepEqual(names(visibleRows(rows, { text: 'cli:', tone: 'all' }, sort)), ['db']);
  assert.deepEqual(names(visibleRows(rows, { text: 'fatal', tone: 'all' }, sort)), ['api']);
  assert.deepEqual(names(visibleRows(rows, { text: '', tone: 'idle' }, sort)), ['db']);
  assert.deepEqual(names(visibleRows(rows, { text: 'web', tone: 'bad' }, sort)), []);
  assert.deepEqual(toneCounts(rows), { all: 3, good: 1, bad: 1, busy: 0, idle: 1 });
});

test('the health cell needs a check: ok, failing, pending while alive, - otherwise', () => {
  assert.equal(healthLabel('Healthy', 'http'), 'ok');
  assert.equal(healthLabel('Unhealthy', 'tcp'), 'failing');
  assert.equal(healthLabel('Running', 'exec'), 'pending');
  assert.equal(healthLabel('Stopped', 'exec'), '-');
  assert.equal(healthLabel('Healthy', null), '-');
});
