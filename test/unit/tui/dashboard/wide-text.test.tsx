import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { cleanup, render } from 'ink-testing-library';
import stringWidth from 'string-width';
import Dashboard from '../../../../tui/dashboard/Dashboard.js';
import { fit } from '../../../../tui/dashboard/components/text.js';
import { FakeDashboardClient, program } from '../../../helpers/fake-dashboard-client.js';
import { plain, until } from '../../../helpers/ink-frames.js';

afterEach(() => cleanup());

void test('fit gives exactly the cells asked for, with wide characters and emoji cut whole', () => {
  for (const text of ['stack:日本語🚀.toml', '🚀🚀🚀🚀🚀🚀', 'ab日本語日本語', 'plain-ascii-label', '👩‍💻 team', 'e\u0301te\u0301']) {
    for (let width = 1; width <= 24; width++) {
      const out = fit(text, width);
      assert.equal(stringWidth(out), width, `fit(${JSON.stringify(text)}, ${width}) = ${JSON.stringify(out)}`);
      assert.ok(!/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/.test(out), `no half of an emoji in ${JSON.stringify(out)}`);
    }
  }
  assert.equal(fit('日本語', 6), '日本語');
  assert.equal(fit('日本語', 5), '日本…');
  assert.equal(fit('日本語', 4), '日… ');
});

void test('a source label with CJK and emoji keeps every table row within the terminal', async () => {
  // Labels of every length, so that a wide character falls on the last cell of some row.
  const programs = Array.from({ length: 12 }, (_, i) => program(`p${String(i).padStart(2, '0')}`, 'Running', {
      id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      source: `stack:${'x'.repeat(i)}日本語🚀日本語🚀.toml`,
    }));
  const app = render(<Dashboard client={new FakeDashboardClient(programs)} timing={{ eventsMs: 50, detailTtlMs: 50, logSettleMs: 0 }} />);
  Object.defineProperty(app.stdout, 'rows', { value: 40, configurable: true });
  app.stdout.emit('resize');
  const frame = () => plain(app.lastFrame());
  await until('rows', () => frame().includes('p11'));
  for (const line of frame().split('\n')) assert.ok(stringWidth(line) <= 100, `${stringWidth(line)} cells: ${line}`);
  assert.match(frame(), /p02 .* stack:xx日本…\n/);
});
