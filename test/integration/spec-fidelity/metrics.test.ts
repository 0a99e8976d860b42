import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useDaemon } from '../../helpers/daemon.js';

const d = useDaemon();

/** Spec: "GET /metrics | Text metrics exposition format." A sample value is a number, never NaN or Inf. */
test('/metrics text exposition: every gauge has a real value or none, never NaN or Inf, even on back-to-back scrapes', async () => {
  for (let i = 0; i < 3; i++) {
    const res = await fetch(`${d.url}/metrics`);
    assert.equal(res.status, 200);
    const text = await res.text();
    const samples = text.split('\n').filter((l) => l !== '' && !l.startsWith('#'));
    assert.ok(samples.length > 20, 'the families have samples');
    for (const line of samples) {
      const value = line.slice(line.lastIndexOf(' ') + 1);
      assert.ok(Number.isFinite(Number(value)), `not a finite value: ${line}`);
    }
    const min = samples.find((l) => l.startsWith('svc_nodejs_eventloop_lag_min_seconds '));
    if (min) assert.ok(Number(min.split(' ')[1]) < 60, `a real lag, not the empty-histogram sentinel: ${min}`);
  }
});
