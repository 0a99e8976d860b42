import { test } from 'node:test';
import assert from 'node:assert/strict';
import { otaSummary, pendingTarget } from '../../../tui/client/ota-format.js';
import type { OtaView } from '../../../state/ota.js';
import { idleOtaView } from '../../helpers/ota-fakes.js';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const idle = (over: Partial<OtaView> = {}): OtaView => idleOtaView(A, over);

test('svc ota status TARGET: the checksum being installed, else a desired one not installed nor rejected', () => {
  assert.equal(pendingTarget(B, idle({ phase: 'downloading', target: B })), B);
  assert.equal(pendingTarget(B, idle()), B, 'an update about to start');
  assert.equal(pendingTarget(A, idle()), null, 'installed');
  assert.equal(pendingTarget(B, idle({ rejected: B })), null, 'rejected');
  assert.equal(pendingTarget(B, null), B, 'not inspected yet');
});

test('svc ota status TARGET: a desired checksum written in upper case is the installed one, not a target', () => {
  assert.equal(pendingTarget(A.toUpperCase(), idle()), null);
  assert.equal(pendingTarget(B.toUpperCase(), idle({ rejected: B })), null);
  assert.equal(pendingTarget(B.toUpperCase(), idle()), B);
});

test('after the swap the summary names the new binary once and says when a stopped program takes it into use', () => {
  // installed is the new binary from the swap on: 'installed: b -> b' said nothing.
  const swapped = idle({ phase: 'validating', installed: B, target: B, deadline: 2 });
  assert.equal(otaSummary(swapped), `validating   installed: ${B.slice(0, 12)}`);
  const stopped = idle({ phase: 'restarting', installed: B, target: B });
  assert.equal(otaSummary(stopped), `restarting   installed: ${B.slice(0, 12)}   validated at the program's next start`);
  const manual = idle({ phase: 'restarting', installed: B, target: B, restart_pending: true });
  assert.equal(otaSummary(manual), `restarting   installed: ${B.slice(0, 12)}   restart pending (restart_policy = manual)`);
  assert.equal(otaSummary(idle({ phase: 'downloading', target: B })), `downloading   installed: ${A.slice(0, 12)} -> ${B.slice(0, 12)}`);
});
