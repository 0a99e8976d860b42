import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, useDaemon } from '../helpers/daemon.js';

const d = useDaemon();

const gauge = (text: string, name: string) => {
  const m = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
  return m ? Number(m[1]) : null;
};

test('an idle svcd reports event loop lag percentiles of a few milliseconds, not the sampling resolution', async () => {
  // Each scrape reads the window since the previous one (none when no timer fired in it); a
  // busy test host may spoil one window, so the next scrape is a fresh measurement.
  await eventually(async () => {
    const text = await (await fetch(`${d.url}/metrics`)).text();
    const p50 = gauge(text, 'svc_nodejs_eventloop_lag_p50_seconds');
    const p90 = gauge(text, 'svc_nodejs_eventloop_lag_p90_seconds');
    return p50 !== null && p90 !== null && p50 < 0.005 && p90 < 0.005;
  }, 20_000, 'idle lag p50 and p90 below 5 ms');
  const text = await (await fetch(`${d.url}/metrics`)).text();
  assert.match(text, /# TYPE svc_nodejs_eventloop_lag_p99_seconds gauge/);
});
