import { test } from 'node:test';
import assert from 'node:assert/strict';
import { maskedClient } from '../../../api/ws/masked-client.js';
import type { LogClient } from '../../../api/ws/log-hub.js';
import type { ProgramConfig } from '../../../state/program.js';

class FakeClient implements LogClient {
  bufferedAmount = 7;
  sent: string[] = [];
  send(data: string) {
    this.sent.push(data);
  }
  close() {}
}

const line = (content: string, source = 'stdout') => JSON.stringify({ source, content, ts: 1 });

test('log stream below admin: env values set or changed after the stream opened are masked too (only those at its opening were)', () => {
  let config: ProgramConfig | undefined = { name: 'app', command: 'app' }; // no env yet: nothing to mask
  const ws = new FakeClient();
  const client = maskedClient(ws, () => config);
  client.send(line('starting'));
  config = { ...config, env: { API_TOKEN: 'old-token-1234' } };
  client.send(line('token old-token-1234'));
  // `svc update app -e API_TOKEN=...` then a restart, while a viewer's stream stays open.
  config = { ...config, env: { API_TOKEN: 'new "quoted" token' } };
  client.send(line('token new "quoted" token, was old-token-1234'));
  assert.deepEqual(
    ws.sent.map((m) => (JSON.parse(m) as { content: string }).content),
    ['starting', 'token [redacted]', 'token [redacted], was [redacted]'],
  );
  assert.equal(client.bufferedAmount, 7);
});

test('log stream below admin: a value split across two pieces of a long line is masked whole, and the pieces still add up to the line', () => {
  const config: ProgramConfig = { name: 'app', command: 'app', env: { API_TOKEN: 'tok-0123456789abcdef' } };
  const ws = new FakeClient();
  const client = maskedClient(ws, () => config);
  const piece = (content: string, continues: boolean) => JSON.stringify({ source: 'stdout', content, ts: 1, ...(continues ? { continues } : {}) });
  // A 64 KiB piece ends inside the value; the next message (the end of the line) holds the rest.
  client.send(piece(`${'x'.repeat(100)} key=tok-0123456`, true));
  client.send(line('stderr is apart', 'stderr'));
  client.send(piece('789abcdef end', false));
  const got = ws.sent.map((m) => JSON.parse(m) as { source: string; content: string; continues?: boolean });
  assert.equal(got.filter((m) => m.source === 'stdout').map((m) => m.content).join(''), `${'x'.repeat(100)} key=[redacted] end`);
  assert.equal(got[0].continues, true);
  assert.equal(got.some((m) => m.content.includes('0123456')), false);
});
