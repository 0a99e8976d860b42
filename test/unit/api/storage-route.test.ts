import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiDeps } from '../../../api/deps.js';
import { REDACTED } from '../../../state/redact-url.js';
import { storageRouter } from '../../../api/routes/storage.js';
import type { Principal } from '../../../state/auth/principal.js';
import { getAs } from '../../helpers/router-as.js';

const quarantined = [{ id: 'q1', name: 'web', reason: "program 'web': startsecs: must be >= 0", raw: '{"config":{"env":{"TOKEN":"hunter22"}}}', at: 1, moved: true }];
const health = { writable: true, problem: null, since: null, recovered_at_open: null };
const deps = {
  store: { report: () => ({ ...health, pending_intents: 0, quarantined }) },
  events: { report: () => ({ ...health, queued: 0, malformed_records: 0 }) },
} as unknown as ApiDeps;

const get = async (principal: Principal) => (await getAs(storageRouter(deps), principal, '/system/storage')) as { state: { quarantined: { raw: string }[] } };

test("a quarantined record's stored text (its env values) is shown only to roles that see secrets", async () => {
  assert.equal((await get({ kind: 'secret', role: 'admin' })).state.quarantined[0].raw, quarantined[0].raw);
  assert.equal((await get({ kind: 'token', role: 'viewer', id: 't', name: 'v' })).state.quarantined[0].raw, REDACTED);
  assert.equal((await get({ kind: 'token', role: 'operator', id: 't', name: 'o' })).state.quarantined[0].raw, REDACTED);
});
