import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseBatch } from '../../../api/routes/batch.js';
import { SvcError } from '../../../state/errors.js';

const refusal = (body: unknown): string => {
  try {
    parseBatch(body);
  } catch (err) {
    assert.ok(err instanceof SvcError && err.code === 'SVC_INVALID', String(err));
    return err.message;
  }
  assert.fail(`accepted ${JSON.stringify(body)}`);
};
const all = (action: unknown) => ({ select_all: true, action });

test('a batch action reads the payload the spec gives it; types are case-insensitive', () => {
  assert.deepEqual(parseBatch(all({ type: 'stop', payload: { force: true } })).action, { type: 'Stop', payload: { force: true, signal: undefined } });
  assert.deepEqual(parseBatch(all({ type: 'Signal', payload: { signal: 'HUP' } })).action, { type: 'Signal', payload: { force: false, signal: 'HUP' } });
  assert.deepEqual(parseBatch(all({ type: 'Start', payload: null })).action, { type: 'Start', payload: null });
  assert.deepEqual(parseBatch(all({ type: 'Restart' })).action, { type: 'Restart', payload: null }, 'a missing payload is null');
  assert.deepEqual(parseBatch(all({ type: 'Remove', payload: {} })).action.type, 'Remove', 'an empty object reads as no payload');
  assert.equal(parseBatch(all({ type: 'Remove', payload: { force: true } })).action.payload?.force, true, 'Remove {force}: an svc addition');
  assert.equal(refusal(all({ type: 'Remove', payload: { force: 'yes' } })), 'action.payload.force: must be true or false');
});

test('a field the action does not read is a 400 naming it, not ignored', () => {
  assert.equal(refusal(all({ type: 'Stop', payload: { forse: true } })), 'action.payload.forse: unknown field (Stop reads force)');
  assert.equal(refusal(all({ type: 'Start', payload: { force: true } })), 'action.payload.force: unknown field (Start takes no payload: null)');
  assert.equal(refusal(all({ type: 'Stop', payload: null, force: true })), 'action.force: unknown field (an action is {type, payload})');
  assert.equal(refusal(all([])), 'action: required, as {type, payload}');
});

test('a Signal names action.payload.signal when it is missing, not a string or not a signal', () => {
  assert.match(refusal(all({ type: 'Signal', payload: null })), /^action\.payload\.signal: is required for Signal, one of hup, int, term, kill, quit, usr1, usr2$/);
  assert.match(refusal(all({ type: 'Signal', payload: { signal: 9 } })), /^action\.payload\.signal: must be a string, one of hup, /);
  assert.match(refusal(all({ type: 'Signal', payload: { signal: 'stop' } })), /^action\.payload\.signal: 'stop' is not one of hup, /);
});
