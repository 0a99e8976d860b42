import { test } from 'node:test';
import assert from 'node:assert/strict';
import { finiteSamples } from '../../../api/metrics/finite-samples.js';
import { SvcMetrics } from '../../../api/metrics/metrics.js';

/** Every sample line of a text exposition with its value. */
function samples(text: string): { line: string; value: number }[] {
  return text
    .split('\n')
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map((line) => ({ line, value: Number(line.slice(line.lastIndexOf(' ') + 1)) }));
}

test('/metrics exposes no value or a real one: NaN and infinite samples are dropped, HELP and TYPE stay', () => {
  const text = [
    '# HELP a_gauge A gauge.',
    '# TYPE a_gauge gauge',
    'a_gauge{x="1"} Nan',
    'a_gauge{x="two words"} 3',
    'b_gauge +Inf',
    'c_gauge -Inf',
    'h_bucket{le="+Inf"} 4',
    'd_gauge 1.5e-7',
  ].join('\n');
  assert.equal(finiteSamples(text), ['# HELP a_gauge A gauge.', '# TYPE a_gauge gauge', 'a_gauge{x="two words"} 3', 'h_bucket{le="+Inf"} 4', 'd_gauge 1.5e-7'].join('\n'));
});

test('an empty event-loop lag window (no samples since the last scrape) is not exposed at all', () => {
  const empty = [
    'svc_nodejs_eventloop_lag_seconds 0.0627',
    'svc_nodejs_eventloop_lag_min_seconds 9223372036.854776',
    'svc_nodejs_eventloop_lag_max_seconds 0',
    'svc_nodejs_eventloop_lag_mean_seconds Nan',
    'svc_nodejs_eventloop_lag_stddev_seconds Nan',
    'svc_nodejs_eventloop_lag_p50_seconds 5.11e-7',
  ].join('\n');
  assert.equal(finiteSamples(empty), 'svc_nodejs_eventloop_lag_seconds 0.0627');
  const full = ['svc_nodejs_eventloop_lag_min_seconds 0.0001', 'svc_nodejs_eventloop_lag_mean_seconds 0.0002'].join('\n');
  assert.equal(finiteSamples(full), full);
});

test('every gauge of two back-to-back scrapes is finite, and the lag window is real when present', async () => {
  const metrics = new SvcMetrics();
  await metrics.render();
  const text = await metrics.render();
  for (const { line, value } of samples(text)) assert.ok(Number.isFinite(value), line);
  const value = (name: string) => samples(text).find((s) => s.line.startsWith(`${name} `))?.value;
  const min = value('svc_nodejs_eventloop_lag_min_seconds');
  const max = value('svc_nodejs_eventloop_lag_max_seconds');
  assert.equal(min === undefined, max === undefined, 'the window is exposed whole or not at all');
  if (min !== undefined && max !== undefined) assert.ok(min <= max, `min ${min} <= max ${max}`);
});
