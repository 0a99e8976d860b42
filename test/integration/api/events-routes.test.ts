import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Koa from 'koa';
import Router from '@koa/router';
import { errorMiddleware } from '../../../api/errors.js';
import { eventsRouter } from '../../../api/routes/events.js';
import type { EventStats } from '../../../state/events/event-log.js';
import type { EventRecord } from '../../../state/events/types.js';
import { ProgramStore } from '../../../state/store.js';
import { tempEventLog } from '../../helpers/event-log.js';

const GONE = '99999999-9999-4999-8999-999999999999'; // a removed program: events only

let server: Server;
let base: string;
let web: string;
let dataDir: string;
let store: ProgramStore;
let env: Awaited<ReturnType<typeof tempEventLog>>;

before(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'svc-events-api-'));
  store = await ProgramStore.open(dataDir);
  web = (await store.create([{ name: 'web', command: 'node server.js' }]))[0].id;
  env = await tempEventLog();
  const log = env.current;
  log.emit({ event: 'system_startup', msg: 'up' });
  env.clock.advance(1000);
  log.emit({ event: 'process_started', program_id: web, program_name: 'web', msg: 'started pid 1' });
  env.clock.advance(1000);
  log.emit({ event: 'process_exit', program_id: web, program_name: 'web', exit_code: 3, msg: 'crashed: exit code 3' });
  log.emit({ event: 'process_exit', program_id: GONE, program_name: 'old', exit_code: 0, msg: 'stopped because the program was removed' });
  await log.flush();

  const app = new Koa();
  app.use(errorMiddleware({ error: () => undefined }));
  const v1 = new Router({ prefix: '/api/v1' });
  const events = eventsRouter({ store, events: log });
  v1.use(events.routes(), events.allowedMethods());
  app.use(v1.routes());
  const handle = app.callback();
  server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
});

after(async () => {
  await new Promise((resolve) => server.close(resolve));
  await store.close();
  await env.cleanup();
  await rm(dataDir, { recursive: true, force: true });
});

/** The JSON shapes these tests read: a list of records, stats, or an error. */
type Body = EventRecord[] & EventStats & { status: string; message: string };

async function get(path: string): Promise<{ status: number; body: Body }> {
  const res = await fetch(base + path);
  return { status: res.status, body: (await res.json()) as Body };
}

void test('GET /programs/{id}/events lists that program, ascending by default', async () => {
  const { status, body } = await get(`/programs/${web}/events`);
  assert.equal(status, 200);
  assert.deepEqual(body.map((e) => e.event), ['process_started', 'process_exit']);
  const desc = await get(`/programs/${web.toUpperCase()}/events?order=desc&limit=1`);
  assert.deepEqual(desc.body.map((e) => e.event), ['process_exit']);
});

void test('GET /programs/{id}/events answers 404 for an unknown program', async () => {
  const { status, body } = await get(`/programs/${GONE}/events`);
  assert.equal(status, 404);
  assert.equal(body.status, 'error');
  assert.match(body.message, /program '.*' not found/);
  assert.equal((await get('/programs/web/events')).status, 404);
});

void test('GET /events filters daemon-wide; removed programs stay queryable', async () => {
  assert.equal((await get('/events')).body.length, 4);
  const gone = await get(`/events?program_id=${GONE}`);
  assert.deepEqual(gone.body.map((e) => e.program_name), ['old']);
  const exits = await get('/events?event_type=process_exit&exit_code=3&q=CRASH');
  assert.deepEqual(exits.body.map((e) => e.program_id), [web]);
  const sorted = await get('/events?sort_by=exit_code&order=desc&offset=2');
  assert.deepEqual(sorted.body.map((e) => e.exit_code), [3, 0]);
});

void test('GET /events/stats, overall and per program', async () => {
  const all = await get('/events/stats');
  assert.equal(all.body.total, 4);
  assert.deepEqual(Object.keys(all.body.by_type), ['process_exit', 'process_started', 'system_startup']);
  const one = await get(`/events/stats?program_id=${web}`);
  assert.deepEqual(one.body.by_type, { process_exit: 1, process_started: 1 });
  assert.equal(Number(one.body.last_ts) - Number(one.body.first_ts), 1);
});

void test('bad parameters answer 400 naming the parameter', async () => {
  const cases: [string, RegExp][] = [
    ['/events?limit=1001', /^limit: must be at most 1000$/],
    ['/events?limit=0', /^limit: must be at least 1$/],
    ['/events?limit=ten', /^limit: must be an integer/],
    ['/events?offset=-1', /^offset: must be at least 0$/],
    ['/events?sort_by=size', /^sort_by: must be one of time, event, exit_code, signal, retry_count, duration_secs, msg/],
    ['/events?order=up', /^order: must be asc or desc/],
    ['/events?event_type=x', /^event_type: unknown event type 'x'/],
    ['/events?from=10&to=5', /^from: must not be after to/],
    ['/events?exit_code=1.5', /^exit_code: must be an integer/],
    ['/events?program_id=web', /^program_id: must be a program UUID/],
    ['/events/stats?program_id=nope', /^program_id: must be a program UUID/],
    [`/programs/${web}/events?sort_by=bogus`, /^sort_by: /],
    // A sort other than time holds offset + limit events: an unbounded offset held the whole history.
    ['/events?from=1764000000000', /^from: must be Unix seconds \(at most 253402300799, the end of year 9999\); 1764000000000 looks like milliseconds$/],
    ['/events?to=1764000000000', /^to: must be Unix seconds/],
    ['/events?sort_by=msg&offset=100001', /^offset: at most 100000 when sort_by is msg .*sort by time, which takes any offset$/],
  ];
  for (const [path, message] of cases) {
    const { status, body } = await get(path);
    assert.equal(status, 400, path);
    assert.match(body.message, message, path);
  }
  assert.equal((await get('/events?sort_by=msg&offset=100000')).status, 200);
  assert.equal((await get('/events?offset=100000000')).status, 200, 'sorted by time: any offset');
});
