import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../../helpers/cli.js';
import { eventually, fixture, useDaemon } from '../../helpers/daemon.js';

/** Spec, Cron overlap: "skip | The new firing is skipped." svc records why (cron_skipped, docs/events.md). */
const d = useDaemon();

test('cron overlap skip: "The new firing is skipped", and svc events answers why with cron_skipped naming the slot', async () => {
  const created = await d.request('POST', '/api/v1/programs', {
    name: 'slow-job',
    command: process.execPath,
    args: [fixture('exit-with.js'), '0', '2500'],
    cron: '* * * * * *',
    on_overlap: 'skip',
  });
  assert.equal(created.status, 201);
  const id = created.body.id as string;
  type Event = { event: string; msg: string; program_name: string };
  const skipped = await eventually(async () => (await d.request<Event[]>('GET', `/api/v1/programs/${id}/events?event_type=cron_skipped`)).body[0], 15_000, 'a skipped firing');
  assert.equal(skipped.program_name, 'slow-job');
  assert.match(skipped.msg, /^firing for slot \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z skipped: 1 run in flight \(max_concurrent 1, on_overlap = skip\)$/);
  const detail = (await d.request<{ state: { cron: { skipped: number } } }>('GET', `/api/v1/programs/${id}`)).body;
  assert.ok(detail.state.cron.skipped >= 1, 'counted too');
  const cli = await runCli(['events', 'slow-job', '--type', 'cron_skipped'], { SVC_URL: d.url });
  assert.equal(cli.code, 0, cli.stderr);
  assert.match(cli.stdout, /cron_skipped .*firing for slot .* skipped: 1 run in flight/);
  assert.equal((await d.request('POST', `/api/v1/programs/${id}/stop`)).status, 200);
});
