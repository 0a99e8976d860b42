import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { cleanup, render } from 'ink-testing-library';
import Dashboard from '../../../../tui/dashboard/Dashboard.js';
import { MIN_ROWS, screenLayout } from '../../../../tui/dashboard/layout.js';
import { FakeDashboardClient, program } from '../../../helpers/fake-dashboard-client.js';
import { plain, until } from '../../../helpers/ink-frames.js';

afterEach(() => cleanup());

void test('from the smallest terminal up, the parts fill rows - 1 and the two left panes fill their column', () => {
  for (let rows = MIN_ROWS; rows <= 80; rows++) {
    const l = screenLayout(100, rows);
    assert.equal(1 + 1 + l.tableRows + l.paneRows + 1, rows - 1, `rows ${rows}`);
    assert.equal(l.detailRows + l.eventRows, l.paneRows, `rows ${rows}`);
    assert.ok(l.eventRows >= 0 && l.detailRows >= 1, `rows ${rows}`);
  }
});

function mountSized(rows: number) {
  const client = new FakeDashboardClient([program('web'), program('api', 'Fatal'), program('db', 'Stopped')]);
  const app = render(<Dashboard client={client} timing={{ eventsMs: 50, detailTtlMs: 50, logSettleMs: 0 }} />);
  Object.defineProperty(app.stdout, 'rows', { value: rows, configurable: true });
  app.stdout.emit('resize');
  return { app, client, frame: () => plain(app.lastFrame()) };
}

void test('on a 9-row terminal every line is drawn once, none over another', async () => {
  const { frame } = mountSized(9);
  await until('detail', () => frame().includes('command: node api.js'));
  const lines = frame().split('\n');
  assert.ok(lines.length <= 8, `${lines.length} lines:\n${frame()}`);
  assert.ok(lines.some((l) => /^api Fatal 0000/.test(l)), `the detail title has a line of its own:\n${frame()}`);
  assert.ok(lines.some((l) => l.startsWith('command: node api.js')), frame());
});

void test('a terminal too low for the panes shows a notice and takes no action key', async () => {
  const { app, client, frame } = mountSized(6);
  await until('notice', () => frame().includes('svc ui: the terminal is 6 rows high; it needs 9 (q quits)'));
  assert.equal(frame().split('\n').length, 1);
  app.stdin.write('x');
  await new Promise((r) => setTimeout(r, 50));
  app.stdin.write('y');
  await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(client.calls, [], 'no stop was sent');
  Object.defineProperty(app.stdout, 'rows', { value: 30, configurable: true });
  app.stdout.emit('resize');
  await until('panes again', () => /api\s+Fatal/.test(frame()));
  assert.doesNotMatch(frame(), /\[y\/N\]/);
});

void test('a narrow terminal leaves out pid and figures before health and the next cron run, and every row fits', async () => {
  const { columns } = await import('../../../../tui/dashboard/components/columns.js');
  const titles = (width: number) => columns(width).map((c) => c.title);
  const rowWidth = (width: number) => 2 + columns(width).reduce((n, c) => n + c.width + 1, 0) - 1;
  assert.deepEqual(titles(120), ['NAME', 'STATUS', 'PID', 'UPTIME', 'RST', 'CPU%', 'MEM', 'HEALTH', 'NEXT RUN', 'SOURCE']);
  for (const width of [60, 70, 80]) {
    assert.ok(titles(width).includes('HEALTH') && titles(width).includes('NEXT RUN'), `${width}: ${titles(width).join(' ')}`);
    assert.ok(rowWidth(width) <= width, `${width} columns: a row takes ${rowWidth(width)}`);
    assert.ok((columns(width)[0]?.width ?? 0) >= 12, `${width}: the name keeps 12 cells`);
  }
  assert.deepEqual(titles(60), ['NAME', 'STATUS', 'RST', 'CPU%', 'HEALTH', 'NEXT RUN']);
});
