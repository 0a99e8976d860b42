import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as prom from 'prom-client';
import type { Context } from 'koa';
import { HttpMetrics } from '../../../api/metrics/http-metrics.js';
import { SvcMetrics } from '../../../api/metrics/metrics.js';
import { PendingHistogram } from '../../../api/metrics/pending-histogram.js';

/** Serves one fake request through the middleware with a given duration (a fake hrtime). */
async function serve(http: HttpMetrics, route: string, status: number): Promise<void> {
  const ctx = { method: 'GET', status, _matchedRoute: route } as unknown as Context;
  await http.middleware()(ctx, async () => undefined);
}

const sample = (text: string, line: string) => new RegExp(`^${line.replace(/[{}.+]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1];

test('pending histogram: a replay gives the real histogram the same count, sum and buckets as observing directly', async () => {
  const buckets = [0.001, 0.01, 0.1, 1];
  const values = [0.0005, 0.001, 0.002, 0.009, 0.05, 0.05, 0.3, 7, 0.0001];
  const direct = new prom.Histogram({ name: 'direct', help: 'h', labelNames: ['k'], buckets, registers: [] });
  const replayed = new prom.Histogram({ name: 'replayed', help: 'h', labelNames: ['k'], buckets, registers: [] });
  const pending = new PendingHistogram(buckets);
  for (const [i, v] of values.entries()) {
    direct.observe({ k: String(i % 2) }, v);
    pending.observe({ k: String(i % 2) }, v);
  }
  assert.deepEqual(pending.totals().map((t) => [t.labels.k, t.count]), [['0', 5], ['1', 4]]);
  pending.replay(replayed);
  const a = (await direct.get()).values;
  const b = (await replayed.get()).values;
  assert.equal(a.length, b.length);
  for (const [i, v] of a.entries()) {
    assert.deepEqual(b[i].labels, v.labels);
    assert.ok(Math.abs(b[i].value - v.value) < 1e-12, `${v.metricName} ${JSON.stringify(v.labels)}: ${b[i].value} vs ${v.value}`);
  }
  assert.deepEqual(pending.totals(), [], 'a replay empties it');
});

test('metrics: prom-client loads on the first scrape, and requests served before it are counted', async () => {
  const metrics = new SvcMetrics({ defaultMetrics: false });
  const http = new HttpMetrics();
  metrics.add(http);
  for (let i = 0; i < 3; i++) await serve(http, '/api/v1/programs', 200);
  await serve(http, '/api/v1/programs/:id', 404);
  const first = await metrics.render();
  assert.equal(sample(first, 'svc_http_requests_total{method="GET",route="/api/v1/programs",code="200"}'), '3');
  assert.equal(sample(first, 'svc_http_requests_total{method="GET",route="/api/v1/programs/:id",code="404"}'), '1');
  assert.equal(sample(first, 'svc_http_request_duration_seconds_count{method="GET",route="/api/v1/programs",code="200"}'), '3');
  assert.equal(sample(first, 'svc_http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/api/v1/programs",code="200"}'), '3');
  await serve(http, '/api/v1/programs', 200);
  const second = await metrics.render();
  assert.equal(sample(second, 'svc_http_requests_total{method="GET",route="/api/v1/programs",code="200"}'), '4', 'counting goes on after the hand-over, once each');
  assert.equal(sample(second, 'svc_http_request_duration_seconds_count{method="GET",route="/api/v1/programs",code="200"}'), '4');
});

test('metrics: a source added after the first scrape is installed at once; the default runtime metrics include GC counted from the start', async () => {
  const metrics = new SvcMetrics();
  const late = new HttpMetrics();
  const text = await metrics.render();
  assert.match(text, /^svc_process_cpu_seconds_total /m);
  assert.match(text, /^# TYPE svc_nodejs_gc_duration_seconds histogram$/m);
  assert.match(text, /^# TYPE svc_nodejs_eventloop_lag_seconds gauge$/m);
  assert.doesNotMatch(text, /^svc_nodejs_active_handles_total /m);
  metrics.add(late);
  await serve(late, '/health', 200);
  assert.equal(sample(await metrics.render(), 'svc_http_requests_total{method="GET",route="/health",code="200"}'), '1');
  assert.equal(metrics.contentType, prom.Registry.PROMETHEUS_CONTENT_TYPE);
});
