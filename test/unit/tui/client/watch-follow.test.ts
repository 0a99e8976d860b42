import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { WatchMessage } from '../../../../api/wire.js';
import { FakeClock } from '../../../../reconciler/fake-clock.js';
import { ApiError } from '../../../../tui/client/errors.js';
import type { WatchHandlers } from '../../../../tui/client/watch.js';
import { followWatch, type WatchSink } from '../../../../tui/client/watch-follow.js';

/** A daemon that refuses until `up`, then accepts; `handlers` is the open stream's. */
function fakeDaemon() {
  const d = {
    up: false,
    attempts: 0,
    closed: 0,
    handlers: null as WatchHandlers | null,
    connect: async (h: WatchHandlers) => {
      d.attempts++;
      if (!d.up) throw new ApiError('cannot reach svcd at http://x: connection refused', 'unreachable');
      d.handlers = h;
      return () => void d.closed++;
    },
  };
  return d;
}

function recorder(): WatchSink & { log: string[] } {
  const log: string[] = [];
  return {
    log,
    snapshot: (programs) => log.push(`snapshot ${programs.length}`),
    program: (p) => log.push(`program ${p.name}`),
    removed: (id) => log.push(`removed ${id}`),
    system: () => log.push('system'),
    disconnected: (error, retryMs) => log.push(`down ${retryMs} ${error}`),
    refused: (error) => log.push(`refused ${error.message}`),
  };
}

const settle = () => new Promise((r) => setImmediate(r));
const snapshot: WatchMessage = { type: 'snapshot', programs: [], system: null };

void test('retries 1, 2, 4 s then every 5 s while svcd is away; a snapshot resets the backoff', async () => {
  const clock = new FakeClock();
  const daemon = fakeDaemon();
  const sink = recorder();
  const stop = followWatch({ connect: daemon.connect, clock, retryMs: 1000, maxRetryMs: 5000 }, sink);
  for (const wait of [1000, 2000, 4000, 5000]) {
    await settle();
    clock.advance(wait);
  }
  await settle();
  assert.deepEqual(
    sink.log.map((l) => l.split(' ').slice(0, 2).join(' ')),
    ['down 1000', 'down 2000', 'down 4000', 'down 5000', 'down 5000'],
  );
  daemon.up = true;
  clock.advance(5000);
  await settle();
  daemon.handlers?.message(snapshot);
  daemon.handlers?.message({ type: 'removed', id: 'x' });
  daemon.handlers?.end(new ApiError('svcd at http://x closed the stream', 'unreachable'));
  assert.deepEqual(sink.log.slice(5), ['snapshot 0', 'removed x', 'down 1000 svcd at http://x closed the stream']);
  stop();
});

void test('stop closes the open stream and cancels a pending retry', async () => {
  const clock = new FakeClock();
  const daemon = fakeDaemon();
  daemon.up = true;
  const sink = recorder();
  const stop = followWatch({ connect: daemon.connect, clock, retryMs: 1000, maxRetryMs: 5000 }, sink);
  await settle();
  daemon.handlers?.message(snapshot);
  stop();
  assert.equal(daemon.closed, 1);
  daemon.handlers?.message({ type: 'system', system: null });
  assert.deepEqual(sink.log, ['snapshot 0'], 'nothing after stop');

  const down = fakeDaemon();
  const stop2 = followWatch({ connect: down.connect, clock, retryMs: 1000, maxRetryMs: 5000 }, recorder());
  await settle();
  stop2();
  clock.advance(60_000);
  await settle();
  assert.equal(down.attempts, 1);
  assert.equal(clock.nextTimerAt(), null);
});

void test('a refused credential (401) ends the follow: no retry, refused once with svcd\'s answer', async () => {
  const clock = new FakeClock();
  const daemon = fakeDaemon();
  daemon.up = true;
  const sink = recorder();
  followWatch({ connect: (h) => daemon.connect(h), clock, retryMs: 1000, maxRetryMs: 5000 }, sink);
  await settle();
  daemon.handlers?.message(snapshot);
  // The token is revoked; the stream ends and the next connection is refused.
  daemon.connect = async () => {
    daemon.attempts++;
    throw new ApiError('authentication failed: the Bearer credential is neither the admin secret nor a valid Access Token (use --token or SVC_TOKEN)', 'http', 401);
  };
  daemon.handlers?.end(new ApiError('svcd at http://x closed the stream', 'unreachable'));
  clock.advance(1000);
  await settle();
  clock.advance(60_000);
  await settle();
  assert.equal(daemon.attempts, 2, 'the refused attempt is the last');
  assert.deepEqual(sink.log.slice(2), ['refused authentication failed: the Bearer credential is neither the admin secret nor a valid Access Token (use --token or SVC_TOKEN)']);
  assert.equal(clock.nextTimerAt(), null);
});
