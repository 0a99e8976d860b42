// Per-program metric families are written as text (api/metrics/text-families.ts): the text must be
// what prom-client writes for the same samples, and stay valid for any program name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as prom from 'prom-client';
import { SvcMetrics } from '../../../api/metrics/metrics.js';
import { ProgramMetrics } from '../../../api/metrics/program-metrics.js';
import { escapeLabelValue, TextFamilies } from '../../../api/metrics/text-families.js';
import { ObservedRegistry } from '../../../state/observed.js';
import type { ProgramRecord } from '../../../state/program.js';
import type { ProgramStore } from '../../../state/store.js';
import { PROGRAM_STATUSES } from '../../../state/status.js';

const NAMES = ['web', 'odd "quoted" \\ name', 'two\nlines'];

function fixture() {
  const records = NAMES.map((name, i) => ({ id: `p${i}`, config: { name, command: 'x' } }) as unknown as ProgramRecord);
  const store = { list: () => records, get: (id: string) => records.find((r) => r.id === id) } as Pick<ProgramStore, 'list' | 'get'>;
  const observed = new ObservedRegistry();
  observed.update('p0', { status: 'Running', pid: 10, cpu_usage: 12.5, mem_usage: 4096, restarts: 2, retries: 1 });
  observed.update('p1', { status: 'Healthy', pid: 11, cpu_usage: Number.NaN, mem_usage: 1, health: { healthy: true, failures: 0, last: { ok: true, latency_ms: 3, at: 1, msg: '' } } as never });
  observed.update('p2', { status: 'Fatal' });
  let reads = 0;
  const metrics = new ProgramMetrics(store, observed, () => reads++);
  return { records, observed, metrics, reads: () => reads };
}

/** The block of one family (HELP line to the next blank line) in a text exposition. */
const family = (text: string, name: string) => {
  const start = text.indexOf(`# HELP ${name} `);
  assert.notEqual(start, -1, `${name} missing`);
  const end = text.indexOf('\n\n', start);
  return text.slice(start, end === -1 ? undefined : end).trimEnd();
};

test('program families are written byte for byte as prom-client writes the same samples, odd names included', async () => {
  const { records, observed, metrics } = fixture();
  const text = metrics.text();
  const registry = new prom.Registry();
  const status = new prom.Gauge({ name: 'svc_program_status', help: 'Program status: 1 for the current status, 0 for the others', labelNames: ['name', 'id', 'status'], registers: [registry] });
  const cpu = new prom.Gauge({ name: 'svc_program_cpu_ratio', help: 'CPU usage of the main process as a ratio of one core (1 = one full core)', labelNames: ['name', 'id'], registers: [registry] });
  const restarts = new prom.Counter({ name: 'svc_program_restarts_total', help: 'Restarts by policy since svcd started (a program in Backoff or Fatal across a crash of svcd: since its last stable run)', labelNames: ['name', 'id'], registers: [registry] });
  for (const r of records) {
    const o = observed.get(r.id);
    const labels = { name: r.config.name, id: r.id };
    for (const s of PROGRAM_STATUSES) status.set({ ...labels, status: s }, o.status === s ? 1 : 0);
    if (Number.isFinite(o.cpu_usage)) cpu.set(labels, o.cpu_usage / 100);
    restarts.inc(labels, o.restarts);
  }
  for (const name of ['svc_program_status', 'svc_program_cpu_ratio', 'svc_program_restarts_total']) {
    assert.equal(family(text, name), await registry.getSingleMetricAsString(name), name);
  }
  assert.match(text, /^svc_program_cpu_ratio\{name="web",id="p0"\} 0\.125$/m);
  assert.doesNotMatch(text, /NaN/, 'a figure that is not a number is no sample');
  assert.match(family(text, 'svc_health_probe_success'), /^svc_health_probe_success\{name="odd \\"quoted\\" \\\\ name",id="p1"\} 1$/m);
  assert.equal(family(text, 'svc_health_probe_success').split('\n').length, 3, 'probe families list probed programs only');
  assert.equal(family(text, 'svc_cron_queued').split('\n').length, 2, 'no cron program: HELP and TYPE only');
});

test('exits are counted by reason from the observed stream; a scrape notes a usage read; the registry text comes first', async () => {
  const { observed, metrics, reads } = fixture();
  const exit = (at: number, reason: string) => observed.update('p0', { last_exit: { exit_code: 1, signal: null, at, duration_ms: 5, reason, msg: '' } });
  exit(1, 'crash');
  exit(2, 'crash');
  exit(3, 'stop');
  const svc = new SvcMetrics({ defaultMetrics: false }).add(metrics);
  const text = await svc.render();
  assert.match(text, /^svc_program_exits_total\{name="web",id="p0",reason="crash"\} 2$/m);
  assert.match(text, /^svc_program_exits_total\{name="web",id="p0",reason="stop"\} 1$/m);
  assert.ok(reads() >= 1);
  // Every sample belongs to a family announced once, before it.
  const announced = new Set<string>();
  for (const line of text.split('\n')) {
    const help = /^# HELP (\S+) /.exec(line);
    if (help) {
      assert.ok(!announced.has(help[1]), `${help[1]} announced twice`);
      announced.add(help[1]);
    } else if (line && !line.startsWith('#')) {
      const name = /^[a-z_]+/.exec(line)![0];
      assert.ok(announced.has(name.replace(/_(bucket|sum|count)$/, '')) || announced.has(name), `${line}: no family`);
    }
  }
});

test('text families: label values and help are escaped as the text format wants; a sample needs a family', () => {
  assert.equal(escapeLabelValue('a"b\\c\nd'), 'a\\"b\\\\c\\nd');
  assert.equal(escapeLabelValue('plain-name_1.2'), 'plain-name_1.2');
  const t = new TextFamilies().family('x', 'gauge', 'line one\nback\\slash').sample('x', 'a="1"', 2).sample('x', '', Infinity);
  assert.equal(t.toString(), '# HELP x line one\\nback\\\\slash\n# TYPE x gauge\nx{a="1"} 2');
  assert.throws(() => new TextFamilies().sample('x', '', 1), /before any family/);
});

test('reloads are counted by result from the observed stream, each ended reload once', async () => {
  const { observed, metrics } = fixture();
  const reload = (seq: number, result: 'reloaded' | 'failed' | 'restarted' | 'started') => observed.update('p0', { last_reload: { seq, result, msg: '', at: seq * 1000 } });
  reload(1, 'reloaded');
  reload(2, 'failed');
  reload(3, 'reloaded');
  observed.update('p0', { cpu_usage: 1 }); // another change repeats the same last_reload: not counted again
  const text = metrics.text();
  assert.match(text, /^# TYPE svc_program_reloads_total counter$/m);
  assert.match(text, /^svc_program_reloads_total\{name="web",id="p0",result="reloaded"\} 2$/m);
  assert.match(text, /^svc_program_reloads_total\{name="web",id="p0",result="failed"\} 1$/m);
  assert.doesNotMatch(text, /svc_program_reloads_total\{name="web",id="p0",result="restarted"\}/);
});
