import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { eventually, fixture, removeRoot, startDaemon, tempRoot, type RunningDaemon } from '../helpers/daemon.js';
import { rawRequest, type RawResponse } from '../helpers/fuzz/raw-request.js';
import { Rng } from '../helpers/fuzz/rng.js';
import { fromSchema } from '../helpers/fuzz/schema-gen.js';
import { MALFORMED_KIND_COUNT, malformedBody, nastyString, randomJson } from '../helpers/fuzz/values.js';

/**
 * A bounded fuzz of every route of the OpenAPI document (svc guarantees, docs/operations.md:
 * bad input gets a 4xx with a message, never a 5xx; it leaks no descriptor and no memory).
 * SVC_FAULTS_LONG=1 sends many more requests; SVC_FUZZ_SEED=<n> replays a run.
 */
const LONG = process.env.SVC_FAULTS_LONG === '1';
const PER_ROUTE = LONG ? 400 : 10;
const SEED = Number(process.env.SVC_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const SECRET = 'fuzz-secret';
const MAX_BODY = 1024 * 1024;
const MAX_HEADER_BYTES = 16 * 1024 - 512;

type Json = Record<string, any>;
interface Operation {
  method: string;
  path: string;
  op: Json;
}

const fdCount = (pid: number) => readdirSync(`/proc/${pid}/fd`).length;
const status = (pid: number, key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

function operations(doc: Json): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths as Json)) {
    for (const [method, op] of Object.entries(item as Json)) out.push({ method: method.toUpperCase(), path, op: op as Json });
  }
  return out;
}

/** Percent-encodes; a lone surrogate becomes the invalid UTF-8 bytes of one (which is worth sending too). */
function enc(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ED%A0%80';
  }
}

const CONTENT_TYPES = ['', 'text/plain', 'application/toml', 'application/yaml', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=utf-8'];

class Fuzzer {
  readonly failures: string[] = [];
  requests = 0;
  private ids: string[] = [];

  constructor(
    private readonly d: RunningDaemon,
    private readonly doc: Json,
    private readonly rng: Rng,
  ) {}

  private resolve = (ref: string): Json => {
    const name = ref.replace('#/components/schemas/', '');
    return this.doc.components.schemas[name] as Json;
  };

  async refreshIds(): Promise<void> {
    const res = await rawRequest(this.d.url, 'GET', '/api/v1/programs', { authorization: `Bearer ${SECRET}` });
    this.ids = (JSON.parse(res.body) as { id: string }[]).map((p) => p.id);
  }

  private idValue(kind?: number): string {
    const r = this.rng;
    if (kind === undefined && this.ids.length > 0 && r.chance(0.6)) return r.pick(this.ids);
    const kinds = [
      () => '00000000-0000-4000-8000-000000000000',
      () => 'web',
      () => enc(nastyString(r)),
      () => '%zz',
      () => '%',
      () => '..',
      () => '%2e%2e%2f%2e%2e',
      () => 'x'.repeat(r.int(1, 9000)),
    ];
    return (kind === undefined ? r.pick(kinds) : (kinds[kind % kinds.length]))();
  }

  private query(op: Json): string {
    const r = this.rng;
    const parts: string[] = [];
    for (const p of (op.parameters ?? []) as Json[]) {
      if (p.in !== 'query' || !r.chance(0.6)) continue;
      const value = r.chance(0.6) ? fromSchema(r, p.schema as Json, this.resolve, String(p.name)) : nastyString(r);
      const text = typeof value === 'string' ? value : JSON.stringify(value);
      parts.push(`${enc(String(p.name))}=${enc(text.slice(0, 5000))}`);
      if (r.chance(0.1)) parts.push(`${enc(String(p.name))}=again`);
    }
    if (r.chance(0.15)) parts.push(`${enc(nastyString(r).slice(0, 50))}=${enc(nastyString(r).slice(0, 50))}`);
    if (r.chance(0.05)) parts.push('%zz=%zz');
    return parts.length > 0 ? `?${parts.join('&')}` : '';
  }

  private body(op: Json, sweep?: number): { body?: Buffer; type: string } {
    const r = this.rng;
    const content = op.requestBody?.content as Json | undefined;
    if (!content) return r.chance(0.1) ? { body: Buffer.from(JSON.stringify(randomJson(r))), type: 'application/json' } : { type: '' };
    const schema = (content['application/json']?.schema ?? {}) as Json;
    const valid = JSON.stringify(fromSchema(r, schema, this.resolve));
    if (sweep !== undefined) {
      // Each kind as JSON; on the stack route (which reads YAML and TOML) also as YAML and TOML.
      const body = malformedBody(r, valid, sweep % MALFORMED_KIND_COUNT);
      const types = content['application/yaml'] ? ['application/json', 'application/yaml', 'application/toml'] : ['application/json'];
      return { body, type: types[Math.floor(sweep / MALFORMED_KIND_COUNT) % types.length] };
    }
    const type = r.chance(0.8) ? 'application/json' : r.pick(CONTENT_TYPES);
    const body = r.chance(0.7) ? Buffer.from(valid) : malformedBody(r, valid);
    return { body, type };
  }

  private headers(type: string): Record<string, string> {
    const r = this.rng;
    const auth = r.chance(0.93) ? `Bearer ${SECRET}` : r.pick(['', 'Bearer', 'Bearer wrong', 'Basic Zm9vOmJhcg==', `Bearer ${'x'.repeat(9000)}`]);
    return { ...(auth ? { authorization: auth } : {}), ...(type ? { 'content-type': type } : {}) };
  }

  /** Every kind of malformed body once on each body route, every kind of bad id once on each id route. */
  async sweep(ops: Operation[]): Promise<void> {
    for (const op of ops) {
      const formats = op.op.requestBody?.content?.['application/yaml'] ? 3 : 1;
      if (op.op.requestBody) for (let k = 0; k < MALFORMED_KIND_COUNT * formats; k++) await this.hit(op, { body: k });
      if (op.path.includes('{id}')) for (let k = 0; k < 8; k++) await this.hit(op, { id: k });
    }
  }

  async hit(op: Operation, sweep: { body?: number; id?: number } = {}): Promise<void> {
    const path = op.path.replace('{id}', () => this.idValue(sweep.id));
    const { body, type } = this.body(op.op, sweep.body);
    const target = `${path}${this.query(op.op)}`;
    const what = `${op.method} ${target.slice(0, 160)} (${type || 'no type'}, ${body?.length ?? 0} bytes)`;
    this.requests++;
    const headers = this.headers(type);
    // Node answers 431 to a request line and headers over 16 KiB and closes at once.
    const headerBytes = target.length + Object.values(headers).reduce((n, v) => n + v.length, 0);
    let res: RawResponse;
    try {
      res = await rawRequest(this.d.url, op.method, target, headers, body);
    } catch (err) {
      // An oversized body (413) or header (431) may be refused and the connection closed before all is sent.
      const oversized = (body?.length ?? 0) > MAX_BODY || headerBytes > MAX_HEADER_BYTES;
      if (oversized && /ECONNRESET|EPIPE/.test(String((err as Error).message ?? err))) return;
      this.failures.push(`${what}: ${(err as Error).message}`);
      return;
    }
    if (res.status >= 500) this.failures.push(`${what}: ${res.status} ${res.body.slice(0, 300)}`);
    if (res.status >= 400 && res.type.startsWith('application/json')) {
      const parsed = JSON.parse(res.body) as { status?: unknown; message?: unknown };
      if (parsed.status !== 'error' || typeof parsed.message !== 'string') this.failures.push(`${what}: error body without status/message: ${res.body.slice(0, 200)}`);
    }
    if (/\n\s+at .+:\d+:\d+\)?/.test(res.body)) this.failures.push(`${what}: a stack trace in the body`);
  }
}

test('fuzz every OpenAPI route: no 5xx, no descriptor growth, bounded memory', { timeout: LONG ? 3_600_000 : 600_000 }, async (t) => {
  const root = tempRoot('svc-fault-fuzz-');
  const d = await startDaemon(root, { config: `[server]\nport = 0\nenable_docs = true\nauth_secret = "${SECRET}"\n` });
  t.diagnostic(`seed ${SEED} (replay with SVC_FUZZ_SEED=${SEED}), ${PER_ROUTE} requests per route`);
  try {
    const auth = { authorization: `Bearer ${SECRET}` };
    const doc = JSON.parse((await rawRequest(d.url, 'GET', '/api/v1/openapi.json', {})).body) as Json;
    const ops = operations(doc).filter((o) => o.path !== '/api/v1/system/shutdown');
    assert.ok(ops.length >= 25, `only ${ops.length} operations in the document`);
    // Targets for {id}: a running program and a stopped one.
    for (const body of [{ name: 'fz-run', command: process.execPath, args: [fixture('forever.js')] }, { name: 'fz-idle', command: 'sleep 1000', autostart: false }]) {
      const res = await rawRequest(d.url, 'POST', '/api/v1/programs', { ...auth, 'content-type': 'application/json' }, Buffer.from(JSON.stringify(body)));
      assert.equal(res.status, 201, res.body);
    }
    await eventually(async () => (await rawRequest(d.url, 'GET', '/api/v1/system/stats', auth)).status === 200, 30_000, 'the first system stats sample');

    const fuzzer = new Fuzzer(d, doc, new Rng(SEED));
    await fuzzer.refreshIds();
    const pid = d.proc.pid as number;
    const round = async (count: number) => {
      for (let i = 0; i < count; i++) {
        for (const op of ops) await fuzzer.hit(op);
        if (i % 4 === 3) await fuzzer.refreshIds();
      }
    };
    await round(2); // warm-up: caches, compiled validators, store files, the parse worker
    const fdsBefore = fdCount(pid);
    const rssBefore = status(pid, 'VmRSS');
    await fuzzer.sweep(ops);
    await round(PER_ROUTE);

    assert.deepEqual(fuzzer.failures, [], `seed ${SEED}: ${fuzzer.failures.length} of ${fuzzer.requests} requests failed`);
    const health = await rawRequest(d.url, 'GET', '/health', {});
    assert.equal(health.status, 200, 'svcd still answers');
    // Descriptors: every request had its own connection, now closed; programs' log files are not held.
    const fdsAfter = await eventually(() => {
      const n = fdCount(pid);
      return n <= fdsBefore + 8 ? n : null;
    }, 30_000, `svcd descriptors back near ${fdsBefore}`).catch(() => fdCount(pid));
    assert.ok(fdsAfter <= fdsBefore + 8, `descriptors grew from ${fdsBefore} to ${fdsAfter}`);
    // Memory: large bodies raise the high-water mark (and the parse worker's heap until it idles
    // out), but nothing accumulates per request: RSS settles near where it started.
    const rssAfter = await eventually(() => {
      const rss = status(pid, 'VmRSS');
      return rss < rssBefore + 128 ? rss : null;
    }, 30_000, 'RSS to settle').catch(() => status(pid, 'VmRSS'));
    t.diagnostic(`${fuzzer.requests} requests; fds ${fdsBefore} -> ${fdsAfter}; RSS ${Math.round(rssBefore)} -> ${Math.round(rssAfter)} MiB, peak ${Math.round(status(pid, 'VmHWM'))} MiB`);
    assert.ok(rssAfter < rssBefore + 128, `RSS grew from ${Math.round(rssBefore)} to ${Math.round(rssAfter)} MiB`);
    assert.ok(status(pid, 'VmHWM') < 600, `peak RSS ${Math.round(status(pid, 'VmHWM'))} MiB`);

    // Last, the one route left out above: shutdown answers 202 and svcd exits 0.
    const shutdown = await rawRequest(d.url, 'POST', '/api/v1/system/shutdown', auth);
    assert.equal(shutdown.status, 202);
    assert.equal(await d.stop(), 0);
  } finally {
    await d.stop();
    removeRoot(root);
  }
});
