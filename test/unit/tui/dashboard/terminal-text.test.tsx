import '../../../helpers/force-color.js';
import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { cleanup, render } from 'ink-testing-library';
import Dashboard from '../../../../tui/dashboard/Dashboard.js';
import { terminalSafe } from '../../../../tui/client/terminal-text.js';
import { FakeDashboardClient, program } from '../../../helpers/fake-dashboard-client.js';
import type { LogSink } from '../../../../tui/dashboard/client.js';
import type { ProgramDetail } from '../../../../api/wire.js';

afterEach(() => cleanup());

const colour = { colour: true };
const plainText = { colour: false };

void test('a carriage return shows the text after the last one; a CRLF ending is dropped', () => {
  assert.equal(terminalSafe('progress 10%\rprogress 90%', colour), 'progress 90%');
  assert.equal(terminalSafe('done\r', colour), 'done');
  assert.equal(terminalSafe('a\rb\r\r', colour), 'b');
});

void test('colours are kept when asked, other escape sequences never', () => {
  assert.equal(terminalSafe('\x1b[31mred\x1b[0m plain', colour), '\x1b[31mred\x1b[0m plain');
  assert.equal(terminalSafe('\x1b[31mred\x1b[0m plain', plainText), 'red plain');
  assert.equal(terminalSafe('before\x1b[2J\x1b[Hafter', colour), 'beforeafter');
  assert.equal(terminalSafe('up\x1b[5A five', colour), 'up five');
  assert.equal(terminalSafe('\x1b]0;TITLE\x07title', colour), 'title');
  assert.equal(terminalSafe('\x1b]52;c;aGk=\x1b\\clip', colour), 'clip');
  assert.equal(terminalSafe('\x9b31mc1\x9d0;t\x9c!', colour), '\x1b[31mc1!');
  assert.equal(terminalSafe('cut \x1b]0;never ends', colour), 'cut ');
  assert.equal(terminalSafe('lone\x1b', colour), 'lone');
});

void test('tabs go to the next multiple of 8 columns, colours not counted; newlines stay on the line', () => {
  assert.equal(terminalSafe('a\tb', colour), `a${' '.repeat(7)}b`);
  assert.equal(terminalSafe('\x1b[1mabc\x1b[0m\tx', colour), `\x1b[1mabc\x1b[0m${' '.repeat(5)}x`);
  assert.equal(terminalSafe('12345678\tx', plainText), `12345678${' '.repeat(8)}x`);
  assert.equal(terminalSafe('echo one\necho two', plainText), 'echo one↵echo two');
  assert.equal(terminalSafe('bell\x07 bs\b so\x0e si\x0f del\x7f', colour), 'bell bs so si del');
  assert.equal(terminalSafe('日本語 ok', colour), '日本語 ok');
});

/** A daemon whose program writes terminal control sequences and has a newline in its arguments. */
class NoisyClient extends FakeDashboardClient {
  override subscribeLogs(_id: string, sink: LogSink) {
    sink.mode('live');
    sink.lines(
      [
        { source: 'stdout', content: 'progress 10%\rprogress 90%' },
        { source: 'stdout', content: '\x1b]0;pwned title\x07after title' },
        { source: 'stdout', content: '\x1b]52;c;aGk=\x07after clipboard' },
        { source: 'stderr', content: 'col\tumns\x1b[2J\x1b[H' },
      ],
      true,
    );
    return () => true;
  }
  override async detail(id: string): Promise<ProgramDetail> {
    const d = await super.detail(id);
    return { ...d, config: { ...d.config, command: 'sh', args: ['-c', 'echo one\necho two'] } };
  }
}

void test('the panes draw what programs write without moving the cursor or talking to the terminal', async () => {
  const app = render(<Dashboard client={new NoisyClient([program('noisy')])} timing={{ eventsMs: 50, detailTtlMs: 50, logSettleMs: 0 }} />);
  const frame = () => app.lastFrame() ?? '';
  const deadline = Date.now() + 60_000;
  while (!(frame().includes('after clipboard') && frame().includes('echo two'))) {
    if (Date.now() > deadline) throw new Error(`timed out; frame:\n${frame()}`);
    await new Promise((r) => setTimeout(r, 10));
  }
  const f = frame();
  assert.ok(!f.includes('\r'), 'no carriage return reaches the terminal');
  assert.ok(!f.includes('\x1b]'), 'no OSC (title, clipboard) reaches the terminal');
  // eslint-disable-next-line no-control-regex
  assert.ok(!/\x1b\[[0-9;]*[A-HJKST]/.test(f), 'no cursor move or clear reaches the terminal');
  assert.ok(!f.includes('\t'), 'no tab reaches the terminal');
  assert.match(f, /progress 90%/);
  assert.ok(!f.includes('progress 10%'));
  assert.match(f, /command: sh -c echo one↵echo two/);
});
