import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderToStaticMarkup } from 'react-dom/server';
import { ApiError } from '../../../web/src/api/http.js';
import { WaitView } from '../../../web/src/components/WaitView.js';
import { parsePlan } from '../../../web/src/logic/plan.js';
import { lostWait, stackPrograms, waitingLine, waitLabel, waitSummary, type WaitResult } from '../../../web/src/logic/stack-wait.js';

const base: WaitResult = { ok: true, timed_out: false, secs: 1.25, ready: [], failed: [], pending: [], skipped: [] };
const ready = (name: string, how: string) => ({ id: `id-${name}`, name, status: how.startsWith('Running') ? 'Running' : 'Healthy', how, secs: 1 });

test('the wait is for the programs the stack keeps (not the pruned), in words with the time limit', () => {
  assert.equal(stackPrograms(parsePlan(['created web', 'updated api (restart)', 'unchanged db', 'pruned old'])), 3);
  assert.equal(waitingLine(4, 60), 'waiting up to 1 min for 4 programs to be ready…');
  assert.equal(waitingLine(1, 30), 'waiting up to 30 s for 1 program to be ready…');
  assert.deepEqual([waitLabel(120), waitLabel(45)], ['2 min', '45 s']);
});

test('a wait reads: all ready; a failure names the program and what was ready; a timeout names who was not ready', () => {
  const ok = { ...base, ready: [ready('web', 'Healthy'), ready('worker', 'Running for 1 s')], skipped: [{ id: 'm', name: 'manual', status: 'Stopped' }] };
  assert.equal(waitSummary(ok), 'all 2 programs are ready, after 1.3 s; 1 skipped');
  assert.equal(waitSummary({ ...base, ready: [ready('web', 'Healthy')] }), 'the program is ready, after 1.3 s');
  assert.equal(waitSummary(base), 'nothing to wait for');
  const failed = { ...ok, ok: false, secs: 0.5, failed: [{ id: 'd', name: 'db', status: 'Fatal', warning: 'crashed: exit code 4' }], pending: [{ id: 'q', name: 'queue', status: 'Starting' }] };
  assert.equal(waitSummary(failed), 'db (Fatal) failed, after 0.5 s; 2 ready, 1 not judged, 1 skipped');
  const timedOut = { ...base, ok: false, timed_out: true, secs: 60, failed: [{ id: 'l', name: 'loop', status: 'Backoff', warning: 'crashed: exit code 5' }] };
  assert.equal(waitSummary(timedOut), 'not ready after 60 s: loop (Backoff)');
});

test('the outcome: ready with how, failed in the error style as an alert with its stderr as text, not judged, skipped', () => {
  const wait: WaitResult = {
    ...base,
    ok: false,
    ready: [ready('web', 'Running for 1 s')],
    failed: [{ id: 'd', name: 'db', status: 'Fatal', warning: 'crashed: exit code 4, 3.0 s after it started; now Fatal', stderr: ['<b>no</b> & <img src=x onerror=alert(1)>'] }],
    pending: [{ id: 'q', name: 'queue', status: 'Starting' }],
    skipped: [{ id: 'm', name: 'manual', status: 'Stopped' }],
  };
  const html = renderToStaticMarkup(<WaitView wait={wait} />);
  assert.match(html, /<p class="plan-summary error-note" role="alert"><b>Not ready:<\/b> db \(Fatal\) failed/);
  assert.match(html, /web <span class="badge tone-good">Running for 1 s<\/span>/);
  assert.match(html, /Failed \(1\)/);
  assert.match(html, /crashed: exit code 4, 3\.0 s after it started; now Fatal/);
  assert.match(html, /<pre class="code stderr" aria-label="stderr of db">&lt;b&gt;no&lt;\/b&gt; &amp; &lt;img src=x onerror=alert\(1\)&gt;<\/pre>/);
  assert.doesNotMatch(html, /<img|<b>no/);
  assert.match(html, /Not judged \(1\)/);
  assert.match(html, /Skipped \(1\)/);
  const timedOut = renderToStaticMarkup(<WaitView wait={{ ...wait, timed_out: true, pending: [] }} />);
  assert.match(timedOut, /role="alert"><b>Not ready \(timed out\):<\/b> not ready after 1\.3 s: db \(Fatal\)/);
  assert.match(timedOut, /Not ready \(1\)/);
  const ok = renderToStaticMarkup(<WaitView wait={{ ...base, ready: [ready('web', 'Healthy')] }} />);
  assert.match(ok, /<p class="plan-summary" role="status"><b>Ready:<\/b> the program is ready/);
  assert.doesNotMatch(ok, /error-note|Failed|Skipped/);
});

test('an apply that waits and gets no answer says the apply may be done; svcd\'s own refusals are left alone', () => {
  const lost = lostWait(new ApiError(504, 'HTTP 504 Gateway Timeout'));
  assert.ok(lost instanceof ApiError);
  assert.equal(lost.status, 504);
  assert.match(lost.message, /^HTTP 504 Gateway Timeout: no answer came while waiting for the programs, but the apply may have been done/);
  assert.match((lostWait(new ApiError(0, 'svcd is not reachable (Failed to fetch)')) as Error).message, /apply may have been done/);
  const refused = new ApiError(409, 'plan: the plan is a now, not b; nothing was changed');
  assert.equal(lostWait(refused), refused);
});
