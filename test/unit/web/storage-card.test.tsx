import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderToStaticMarkup } from 'react-dom/server';
import { StorageCard, type Storage } from '../../../web/src/components/StorageCard.js';

const healthy = { writable: true, problem: null, since: null, recovered_at_open: null };

test('the storage card says a full disk refuses writes, what is held, and what was quarantined', () => {
  const storage: Storage = {
    state: {
      writable: false,
      problem: 'no space left on the data disk (/srv/svc/data): the state store cannot record this change; free some space and retry',
      since: Date.UTC(2024, 0, 1),
      recovered_at_open: null,
      pending_intents: 2,
      quarantined: [{ id: 'q1', name: 'grpc', reason: "program 'grpc': health_check.type: must be one of 'http', 'tcp', 'exec'", raw: '{}', at: 1, moved: true }],
    },
    events: { ...healthy, queued: 12, malformed_records: 1 },
  };
  const html = renderToStaticMarkup(<StorageCard storage={storage} error={null} />);
  assert.match(html, /not writable since/);
  assert.match(html, /no space left on the data disk/);
  assert.match(html, /2 stop\(s\) held in memory/);
  assert.match(html, /12 waiting in memory/);
  assert.match(html, /1 malformed record\(s\) skipped/);
  assert.match(html, /Quarantined records \(1\)/);
  assert.match(html, /<b>grpc<\/b>/);
});

test('a healthy storage card is two writable lines and no quarantine', () => {
  const html = renderToStaticMarkup(<StorageCard storage={{ state: { ...healthy, pending_intents: 0, quarantined: [] }, events: { ...healthy, queued: 0, malformed_records: 0 } }} error={null} />);
  assert.equal(html.match(/tone-good">writable/g)?.length, 2);
  assert.doesNotMatch(html, /Quarantined/);
});
