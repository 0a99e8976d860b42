import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendLines, clearLines, EMPTY_LOG, highlight, viewLines, withoutTerminalControl } from '../../../web/src/logic/log-buffer.js';
import { parseLine, logSocketProtocols, logSocketUrl } from '../../../web/src/api/log-follow.js';
import type { Context } from 'koa';
import { credentialOf } from '../../../api/auth/credential.js';

/** A WebSocket upgrade as the auth middleware reads it: no Authorization, no ?token=, the offered protocols. */
const socketRequest = (protocols: string) => ({ get: (name: string) => (name === 'sec-websocket-protocol' ? protocols : ''), query: {} }) as unknown as Context;

const out = (content: string) => ({ source: 'stdout' as const, content });
const err = (content: string) => ({ source: 'stderr' as const, content });
const all = { stdout: true, stderr: true, search: '', paused: null };

test('a snapshot replaces, stream lines append, the buffer keeps the newest `cap` lines', () => {
  let buf = appendLines(EMPTY_LOG, [out('a'), out('b')], true);
  buf = appendLines(buf, [err('c')], false);
  assert.deepEqual(buf.lines.map((l) => [l.seq, l.content]), [[0, 'a'], [1, 'b'], [2, 'c']]);
  buf = appendLines(buf, [out('x')], true);
  assert.deepEqual(buf.lines.map((l) => l.content), ['x']);
  buf = appendLines(buf, [out('1'), out('2'), out('3')], false, 2);
  assert.deepEqual(buf.lines.map((l) => l.content), ['2', '3']);
});

test('the view filters by stream and search; a pause holds new lines back and counts them', () => {
  let buf = appendLines(EMPTY_LOG, [out('GET /a'), err('error: boom'), out('get /b')], true);
  assert.deepEqual(viewLines(buf, { ...all, stderr: false }).lines.map((l) => l.content), ['GET /a', 'get /b']);
  assert.deepEqual(viewLines(buf, { ...all, search: 'get' }).lines.map((l) => l.content), ['GET /a', 'get /b']);
  const frozen = buf;
  buf = appendLines(buf, [out('later 1'), out('later 2')], false);
  const paused = viewLines(buf, { ...all, paused: frozen });
  assert.equal(paused.lines.length, 3);
  assert.equal(paused.held, 2);
  assert.equal(viewLines(buf, all).lines.length, 5);
});

test('a paused view keeps its lines when a reconnect replaces the buffer, and stays empty after Clear view', () => {
  let buf = appendLines(EMPTY_LOG, [out('a'), out('b')], true);
  const frozen = buf;
  buf = appendLines(buf, [out('a'), out('b'), out('c')], true); // the snapshot after a reconnect
  const paused = viewLines(buf, { ...all, paused: frozen });
  assert.deepEqual(paused.lines.map((l) => l.content), ['a', 'b']);
  assert.equal(paused.held, 3);
  // Clear view while paused: numbering goes on, so lines that come later stay held.
  const cleared = clearLines(frozen);
  buf = appendLines(clearLines(buf), [out('d')], false);
  const after = viewLines(buf, { ...all, paused: cleared });
  assert.deepEqual(after.lines, []);
  assert.equal(after.held, 1);
  assert.ok(buf.lines.every((l) => l.seq >= cleared.next), 'seq numbers are never reused');
});

test('highlight splits around every match, any case', () => {
  assert.deepEqual(highlight('Error and error', 'error'), [
    { text: 'Error', hit: true },
    { text: ' and ', hit: false },
    { text: 'error', hit: true },
  ]);
  assert.deepEqual(highlight('plain', ''), [{ text: 'plain', hit: false }]);
});

test('WebSocket messages and address: JSON lines only; the token rides in a subprotocol, never in the address', () => {
  assert.deepEqual(parseLine('{"source":"stderr","content":"x","ts":5}'), { source: 'stderr', content: 'x', ts: 5 });
  assert.equal(parseLine('not json'), null);
  assert.equal(parseLine('{"source":"stdout"}'), null);
  assert.equal(logSocketUrl({ protocol: 'http:', host: '127.0.0.1:9002' }, 'abc'), 'ws://127.0.0.1:9002/ws?id=abc');
  assert.equal(logSocketUrl({ protocol: 'https:', host: 'h' }, 'abc'), 'wss://h/ws?id=abc');
  assert.deepEqual(logSocketProtocols(null), []);
  // Any secret (spaces, '&', non-ASCII) becomes protocol-safe characters the daemon decodes back.
  for (const secret of ['sk-riOnNSVXP3Wa3fob65H7va3I4WxQXWvT6OqVKXOOWBo', 'a b&c/=+?', 'pässwörd €']) {
    const [name, carried] = logSocketProtocols(secret);
    assert.equal(name, 'svc.v1');
    assert.match(carried ?? '', /^base64url\.bearer\.[A-Za-z0-9_-]+$/);
    assert.equal(credentialOf(socketRequest(['svc.v1', carried ?? ''].join(', ')), true), secret);
  }
});

test('terminal colours and other control sequences are not shown raw', () => {
  const buf = appendLines(EMPTY_LOG, [{ source: 'stdout', content: '\x1b[31mred\x1b[0m and \x1b[1;32mbold green\x1b[m \x1b]0;title\x07done' }], false);
  assert.equal(buf.lines[0]?.content, 'red and bold green done');
  assert.equal(withoutTerminalControl('plain [31m text'), 'plain [31m text', 'brackets without ESC are text');
});
