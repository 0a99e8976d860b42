import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_SUPPRESSION, type Channel } from '../../../../plugins/notify/config/types.js';
import { keepRedacted, redactChannel, redactWebhook, scrubSecrets, stillRedacted } from '../../../../plugins/notify/redact.js';

const ch = (o: Partial<Channel>): Channel => ({ name: 'ops', kind: 'slack', url: 'https://hooks.slack.com/services/T0/B0/secret', events: [], programs: [], min_severity: 'warning', enabled: true, headers: {}, suppression: DEFAULT_SUPPRESSION, ...o });

test('a webhook URL keeps only scheme and host; header values go', () => {
  assert.equal(redactWebhook('https://user:pw@hooks.slack.com:8443/services/T0/B0/secret?x=1'), 'https://hooks.slack.com:8443/[redacted]');
  assert.equal(redactWebhook('not a url'), '[redacted]');
  assert.deepEqual(redactChannel(ch({ headers: { Authorization: 'Bearer t' } })).headers, { Authorization: '[redacted]' });
});

test('a channel sent back redacted keeps its stored URL and header values; a new name cannot', () => {
  const stored = ch({ headers: { A: 'one', B: 'two' } });
  const back = redactChannel(stored);
  const [kept] = keepRedacted([{ ...back, headers: { ...back.headers, B: 'new' }, min_severity: 'critical' }], [stored]);
  assert.deepEqual([kept?.url, kept?.headers, kept?.min_severity], [stored.url, { A: 'one', B: 'new' }, 'critical']);
  const [renamed] = keepRedacted([{ ...back, name: 'other' }], [stored]);
  assert.equal(renamed && stillRedacted(renamed), true);
  const [changed] = keepRedacted([{ ...back, url: 'https://example.test/new' }], [stored]);
  assert.equal(changed?.url, 'https://example.test/new');
});

test('stored header values are not carried to a new URL (an operator cannot send a token it may not read elsewhere)', () => {
  const stored = ch({ kind: 'custom', url: 'https://receiver.example/hook', headers: { Authorization: 'Bearer secret-token' } });
  const back = redactChannel(stored);
  const [moved] = keepRedacted([{ ...back, url: 'http://127.0.0.1:9999/catch' }], [stored]);
  assert.deepEqual(moved?.headers, { Authorization: '[redacted]' });
  assert.equal(moved && stillRedacted(moved), true, 'refused by PUT /system/notify: the value must be given again');
  const [same] = keepRedacted([{ ...back, min_severity: 'info' }], [stored]);
  assert.deepEqual(same?.headers, { Authorization: 'Bearer secret-token' });
});

test('scrubSecrets removes the URL path, query, user info and header values, whole or in pieces, raw or decoded', () => {
  const c = ch({ url: 'https://bot:PASSWORD1@hooks.example.com/services/T0AAAA/B0BBBB/s%40cret99?sig=QUERYSIG1', headers: { 'X-Token': 'HEADERTOKEN' } });
  const text = 'POST https://bot:PASSWORD1@hooks.example.com/services/T0AAAA/B0BBBB/s%40cret99?sig=QUERYSIG1 failed at hooks.example.com; path /services/T0AAAA/B0BBBB/s@cret99; B0BBBB; sig=QUERYSIG1; pw PASSWORD1; HEADERTOKEN';
  const out = scrubSecrets(text, c);
  for (const secret of ['PASSWORD1', 'T0AAAA', 'B0BBBB', 'cret99', 'QUERYSIG1', 'HEADERTOKEN']) assert.doesNotMatch(out, new RegExp(secret), out);
  assert.match(out, /hooks\.example\.com/, 'the host is not a secret');
  assert.equal(scrubSecrets('connect ECONNREFUSED 127.0.0.1:1', c), 'connect ECONNREFUSED 127.0.0.1:1');
});
