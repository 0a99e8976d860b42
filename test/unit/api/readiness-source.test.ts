import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../../../reconciler/fake-clock.js';
import { requestPollTime } from '../../../api/readiness-source.js';
import { READY_POLL_MS } from '../../../state/readiness.js';

void test("?wait='s polls run on svcd's clock, one pause per READY_POLL_MS; once the client has hung up, the next pause ends the wait", async () => {
  const clock = new FakeClock();
  let gone = false;
  const time = requestPollTime({ clock }, () => gone);
  let paused = false;
  const pause = time.pause().then(() => (paused = true));
  clock.advance(READY_POLL_MS - 1);
  await Promise.resolve();
  assert.equal(paused, false, 'not before its time');
  clock.advance(1);
  await pause;
  assert.equal(time.now(), clock.now());
  gone = true;
  await assert.rejects(time.pause(), /the client closed the connection/);
});
