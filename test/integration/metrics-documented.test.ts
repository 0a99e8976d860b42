import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, useDaemon } from '../helpers/daemon.js';

const d = useDaemon();

/**
 * Every family `/metrics` announces is documented in docs/observability.md by its full name
 * (`` `svc_x` `` or `` `svc_x{labels}` ``), and follows Prometheus naming: counters end in
 * `_total`, nothing else does (except the one the spec names), HTTP status is the `code` label.
 */
test('every metric family is documented in docs/observability.md and named by the Prometheus rules', async () => {
  await fetch(`${d.url}/health`); // one request counted before the scrape
  const text = await (await fetch(`${d.url}/metrics`)).text();
  const families = [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => ({ name: m[1], type: m[2] }));
  assert.ok(families.length > 40, `families found: ${families.length}`);
  const doc = readFileSync(join(REPO, 'docs', 'observability.md'), 'utf8');
  const missing = families.filter((f) => !doc.includes(`\`${f.name}\``) && !doc.includes(`\`${f.name}{`)).map((f) => f.name);
  assert.deepEqual(missing, [], 'families not documented in docs/observability.md');
  const SPEC_NAMED = new Set(['svc_cgroup_enforced_total']);
  for (const f of families) {
    if (f.type === 'counter') assert.match(f.name, /_total$/, `${f.name}: a counter ends in _total`);
    else if (!SPEC_NAMED.has(f.name)) assert.doesNotMatch(f.name, /_total$/, `${f.name}: a ${f.type} does not end in _total`);
    assert.doesNotMatch(f.name, /_percent$|_milliseconds$|_ms$|_kb$|_mb$/, `${f.name}: base units (ratio, seconds, bytes)`);
  }
  assert.match(text, /svc_http_requests_total\{[^}]*code="\d{3}"/);
  assert.doesNotMatch(text, /svc_http_requests_total\{[^}]*status=/);
});
