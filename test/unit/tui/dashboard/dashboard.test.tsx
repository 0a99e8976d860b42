import '../../../helpers/force-color.js';
import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { cleanup, render } from 'ink-testing-library';
import Dashboard from '../../../../tui/dashboard/Dashboard.js';
import { FakeDashboardClient, program } from '../../../helpers/fake-dashboard-client.js';
import { plain, until } from '../../../helpers/ink-frames.js';

const FAST = { eventsMs: 50, detailTtlMs: 50, logSettleMs: 0 };
const DOWN = '\x1b[B';
const ESC = '\x1b';
const ENTER = '\r';

afterEach(() => cleanup());

function mount(client: FakeDashboardClient) {
  const app = render(<Dashboard client={client} timing={FAST} />);
  const frame = () => plain(app.lastFrame());
  const press = async (...keys: string[]) => {
    for (const k of keys) {
      app.stdin.write(k);
      await new Promise((r) => setTimeout(r, 15));
    }
  };
  return { app, frame, press };
}

const sample = () => new FakeDashboardClient([program('web'), program('api', 'Fatal'), program('db', 'Stopped')]);

void test('the table shows programs, status text, details and the system line', async () => {
  const { frame } = mount(sample());
  await until('rows', () => /web\s+Running/.test(frame()) && /api\s+Fatal/.test(frame()) && /db\s+Stopped/.test(frame()));
  await until('detail and logs', () => frame().includes('command: node api.js') && frame().includes('hello from'));
  const f = frame();
  assert.match(f, /svc 9\.9\.9/);
  assert.match(f, /cpu -\s+mem -\s+3 programs/);
  assert.match(f, /depends_on: db\s+health_check: http/);
  assert.match(f, /last exit: code 3 \(crash\)/);
  assert.match(f, /stack\.toml/);
  assert.match(f, /err│warn: disk/);
  assert.match(f, /\(live\)/);
});

void test('a removed program whose process is still stopping reads Removing (the API says Stopping, removed: true)', async () => {
  const { frame } = mount(new FakeDashboardClient([program('web'), program('old', 'Stopping', { pid: 4242, removed: true })]));
  await until('rows', () => /web\s+Running/.test(frame()) && /old\s+Removing\s+4242/.test(frame()));
});

void test('status is coloured: Running green, Fatal red, Stopped grey', async (t) => {
  const { app } = mount(sample());
  await until('rows', () => plain(app.lastFrame()).includes('Stopped'));
  const raw = app.lastFrame() ?? '';
  // Colour needs a colour-capable terminal; under a pipe chalk prints none.
  if (!raw.includes('\x1b[')) return t.skip('no colour support in this environment');
  assert.ok(raw.includes('\x1b[32mRunning'), 'Running is green');
  assert.ok(raw.includes('\x1b[31mFatal'), 'Fatal is red');
  assert.ok(raw.includes('\x1b[90mStopped'), 'Stopped is grey');
});

void test('typing a filter narrows the table; Esc clears it', async () => {
  const { frame, press } = mount(sample());
  await until('rows', () => frame().includes('web'));
  await press('/', 'w', 'e');
  await until('filtered', () => !/api\s+Fatal/.test(frame()) && /web\s+Running/.test(frame()));
  await until('prompt', () => frame().includes('/we'));
  await press(ENTER);
  await until('applied', () => frame().includes('filter: we'));
  await press(ESC);
  await until('cleared', () => /api\s+Fatal/.test(frame()));
});

void test('sort keys reorder the rows', async () => {
  const { frame, press } = mount(sample());
  await until('rows', () => frame().includes('web'));
  const order = () => frame().split('\n').flatMap((l) => /^[ *][ >](\w+)\s+(Running|Fatal|Stopped)/.exec(l)?.[1] ?? []);
  assert.deepEqual(order(), ['api', 'db', 'web']);
  await press('O');
  await until('reversed', () => order().join() === 'web,db,api');
  assert.match(frame(), /NAME▼/);
});

void test('x asks first, then stops the selected program; space marks several', async () => {
  const client = sample();
  const { frame, press } = mount(client);
  await until('rows', () => frame().includes('web'));
  await press(DOWN, 'x');
  await until('prompt', () => frame().includes('stop db? [y/N]'));
  assert.equal(client.calls.length, 0);
  await press('y');
  await until('called', () => client.calls.length === 1);
  assert.deepEqual(client.calls[0], { ids: [program('db').id], action: { type: 'Stop', payload: null } });
  await until('message', () => frame().includes('stopped db'));
  await press(' ', ' ', 'r');
  await until('restart', () => client.calls.length === 2);
  assert.deepEqual(client.calls[1]?.ids.sort(), [program('db').id, program('web').id].sort());
  assert.equal(client.calls[1]?.action.type, 'Restart');
});

void test('remove asks first and n cancels', async () => {
  const client = sample();
  const { frame, press } = mount(client);
  await until('rows', () => frame().includes('web'));
  await press('d');
  await until('prompt', () => frame().includes('remove api? [y/N]'));
  await press('n');
  await until('cancelled', () => frame().includes('cancelled'));
  assert.equal(client.calls.length, 0);
});

void test('an API error is shown inline and the dashboard keeps running', async () => {
  const client = sample();
  client.batchError = 'program is in Fatal; reset it first';
  const { frame, press } = mount(client);
  await until('rows', () => frame().includes('web'));
  await press('s');
  await until('error', () => frame().includes('start failed: program is in Fatal; reset it first'));
  await press(DOWN);
  await until('still alive', () => frame().includes('command: node db.js'));
});

void test('a lost daemon shows disconnected, retrying, then recovers by itself', async () => {
  const client = sample();
  const { frame } = mount(client);
  await until('rows', () => frame().includes('web'));
  client.down = 'cannot reach svcd at http://x: connection refused';
  await until('banner', () => frame().includes('disconnected, retrying in'));
  assert.match(frame(), /connection refused/);
  assert.match(frame(), /web\s+Running/, 'the last known table stays on screen');
  client.down = null;
  await until('recovered', () => frame().includes('reconnected to svcd') && !frame().includes('disconnected'));
});

void test('an empty table says why: not connected yet, no programs, or none matching the filter', async () => {
  const client = new FakeDashboardClient([]);
  client.down = 'cannot reach svcd at http://x: connection refused';
  const { frame, press } = mount(client);
  await until('banner', () => frame().includes('disconnected, retrying in'));
  assert.match(frame(), /not connected to svcd yet/);
  assert.doesNotMatch(frame(), /no programs/, 'not "no programs" before svcd answered');
  client.down = null;
  await until('empty list', () => frame().includes('no programs'));
  client.push(program('web'));
  await until('row', () => frame().includes('web'));
  await press('/', 'z', 'z', ENTER);
  await until('filtered out', () => frame().includes('no program matches the filter'));
  assert.match(frame(), /logs - \(no program selected\)/, 'the log pane does not wait for a connection to nothing');
  assert.doesNotMatch(frame(), /\(connecting\)/);
});

void test('help opens with ? and closes with any key; logs pause with p', async () => {
  const { frame, press } = mount(sample());
  await until('rows', () => frame().includes('web'));
  await press('?');
  await until('help', () => frame().includes('svc ui: keys'));
  await press('z');
  await until('closed', () => !frame().includes('svc ui: keys'));
  await press('p');
  await until('paused', () => frame().includes('[paused'));
});

void test('only the visible rows are rendered with 500 programs, one log stream at a time', async () => {
  const many = Array.from({ length: 500 }, (_, i) => program(`p${String(i).padStart(3, '0')}`, 'Running', { id: `id-${i}` }));
  const client = new FakeDashboardClient(many);
  const { frame, press } = mount(client);
  await until('rows', () => frame().includes('of 500'));
  const shown = frame().split('\n').filter((l) => /p\d{3}\s+Running/.test(l)).length;
  assert.ok(shown > 0 && shown < 30, `rendered ${shown} rows`);
  await press(DOWN, DOWN);
  await until('moved', () => /^ >p002/m.test(frame()));
  await until('one stream', () => client.sinks.size === 1);
});

void test('keys typed in one burst are all handled: /ti filters at once', async () => {
  const client = new FakeDashboardClient([program('web'), program('timer'), program('tidy', 'Stopped'), program('api', 'Fatal')]);
  const { app, frame } = mount(client);
  await until('rows', () => frame().includes('web'));
  app.stdin.write('/ti'); // one read, as a fast typist or a paste delivers it
  await until('filtered', () => frame().includes('/ti') && !/web\s+Running/.test(frame()) && /timer\s+Running/.test(frame()) && /tidy\s+Stopped/.test(frame()));
  app.stdin.write('m\r');
  await until('applied', () => frame().includes('filter: tim') && !frame().includes('tidy'));
});

void test('the selection stays on the filtered program when the filter is cleared', async () => {
  const client = new FakeDashboardClient([program('web'), program('timer'), program('api', 'Fatal'), program('db', 'Stopped')]);
  const { frame, press } = mount(client);
  await until('rows', () => /^ >api/m.test(frame()));
  await press('/', 't', 'i', ENTER);
  await until('filtered', () => /^ >timer/m.test(frame()) && !frame().includes('web'));
  await press(ESC);
  await until('cleared', () => /web\s+Running/.test(frame()));
  assert.match(frame(), /^ >timer/m, 'timer is still selected');
  assert.match(frame(), /logs timer/);
});

void test('the table follows the watch stream: a change updates its row, a removal drops it', async () => {
  const client = sample();
  const { frame } = mount(client);
  await until('rows', () => /db\s+Stopped/.test(frame()));
  client.push({ ...program('db'), restarts: 7, health: { healthy: false, failures: 3 } });
  await until('db running', () => /db\s+Running.*\s7\s.*fail×3/.test(frame()));
  client.remove(program('api').id);
  await until('api gone', () => !frame().includes('api') && frame().includes('2 programs'));
});

void test('scrolled up, the log view holds still while lines arrive, counts them, and follows again at the bottom', async () => {
  const client = new FakeDashboardClient([program('web')]);
  const { frame, press } = mount(client);
  await until('stream', () => client.sinks.size === 1 && frame().includes('hello from'));
  const sink = [...client.sinks.values()][0];
  const emit = (from: number, n: number) => sink.lines(Array.from({ length: n }, (_, i) => ({ source: 'stdout' as const, content: `line ${from + i}` })), false);
  emit(0, 100);
  await until('newest', () => frame().includes('line 99'));
  await press('\x1b[5~'); // PageUp
  await until('scrolled', () => frame().includes('[up ') && !frame().includes('line 99'));
  const lines = () => frame().split('\n').filter((l) => /line \d+/.test(l)).map((l) => /line \d+/.exec(l)![0]);
  const before = lines();
  emit(100, 50);
  await until('counted', () => /\[up \d+, 50 new\]/.test(frame()));
  assert.deepEqual(lines(), before, 'the lines being read moved under the reader');
  await press('\x1b[6~'); // PageDown, back to the bottom
  await until('following', () => frame().includes('line 149') && !frame().includes('[up '));
});

void test('PgUp stops at the oldest page: the first PgDn after it shows newer lines', async () => {
  const client = new FakeDashboardClient([program('web')]);
  const { frame, press } = mount(client);
  await until('stream', () => client.sinks.size === 1 && frame().includes('hello from'));
  const sink = [...client.sinks.values()][0];
  sink.lines(Array.from({ length: 40 }, (_, i) => ({ source: 'stdout' as const, content: `line ${i}` })), false);
  await until('newest', () => frame().includes('line 39'));
  const PGUP = '\x1b[5~';
  await press(...Array<string>(20).fill(PGUP));
  await until('oldest page', () => frame().includes('hello from'));
  const up = Number(/\[up (\d+)\]/.exec(frame())?.[1]);
  assert.ok(up > 0 && up <= 42, `scrolled ${up} lines up, past the 42 the pane holds:\n${frame()}`);
  await press('\x1b[6~'); // PageDown
  await until('newer lines', () => !frame().includes('hello from'));
});
