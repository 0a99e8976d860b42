import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Page, BrowserContextOptions } from 'playwright-core';
import { useDaemon, startDaemon, removeRoot, fixture, eventually, tempRoot } from '../helpers/daemon.js';
import { licensedRoot, testSigner } from '../helpers/license.js';
import { browserSkip, PAGE_TIMEOUT, screenshotDir, useBrowser } from '../helpers/browser.js';

// The web dashboard in a real browser (Debian's chromium through playwright-core) against a real
// svcd. One browser for the file; each test opens its own page. `npm run screenshots` runs this
// file with SVC_SCREENSHOTS=docs/screenshots to refresh the pictures in the docs.

const skip = browserSkip();
const browser = useBrowser();
const d = useDaemon();
const shots = screenshotDir();
const WAIT = 15_000;

const pageErrors = new WeakMap<Page, string[]>();

async function open(path = '/', options: BrowserContextOptions = {}, base = d.url): Promise<Page> {
  const context = await browser().newContext({ viewport: { width: 1280, height: 760 }, ...options });
  const page = await context.newPage();
  page.setDefaultTimeout(PAGE_TIMEOUT);
  const errors: string[] = [];
  pageErrors.set(page, errors);
  page.on('pageerror', (err) => errors.push(err.message));
  await page.goto(`${base}${path}`);
  return page;
}

/** Closes the page's context and fails the test if the page threw. */
async function close(page: Page): Promise<void> {
  await page.context().close();
  assert.deepEqual(pageErrors.get(page), [], 'no script errors in the page');
}

async function shot(page: Page, name: string): Promise<void> {
  if (shots) await page.screenshot({ path: join(shots, `${name}.png`) });
}

async function add(config: Record<string, unknown>): Promise<string> {
  const res = await d.request('POST', '/api/v1/programs', config);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.id as string;
}

const statusOf = async (name: string) => ((await d.request('GET', '/api/v1/programs')).body as { name: string; status: string }[]).find((p) => p.name === name)?.status;
const cell = (page: Page, name: string, status: string) => page.locator(`tr[data-name="${name}"] .c-status`, { hasText: status });

void test('the table shows the programs live; stop one with the mouse and start it with the keyboard, each after confirming', { skip }, async () => {
  for (const name of ['alpha', 'beta']) await add({ name, command: process.execPath, args: [fixture('forever.js')], source: 'cli:add' });
  await add({ name: 'nightly', command: 'true', cron: '0 3 * * *', source: 'stack:jobs.toml' });
  await add({ name: 'crashy', command: 'sh', args: ['-c', 'echo boom >&2; exit 3'], retry_limit: 1 });
  const page = await open('/');
  await cell(page, 'alpha', 'Running').waitFor();
  await cell(page, 'beta', 'Running').waitFor();
  await cell(page, 'crashy', 'Fatal').waitFor();
  assert.match(await page.locator('tr[data-name="alpha"] .c-pid').innerText(), /^\d+$/);
  // Usage is sampled once someone looks (the first list read starts the sampler).
  await page.locator('tr[data-name="alpha"] .c-mem', { hasText: /iB$/ }).waitFor();
  await page.locator('tr[data-name="nightly"] .c-source', { hasText: 'stack:jobs.toml' }).waitFor();
  assert.equal(await page.locator('tr[data-name="nightly"] .c-name a').getAttribute('title'), 'nightly', 'a name cut to fit is whole in its title');
  assert.match(await page.locator('tr[data-name="nightly"] .c-next').innerText(), /\d\d:\d\d/);
  await shot(page, 'programs');

  await page.getByLabel('Mark alpha').click();
  await page.getByRole('toolbar', { name: 'Actions on marked programs' }).getByRole('button', { name: 'Stop' }).click();
  const dialog = page.getByRole('dialog', { name: 'Stop alpha?' });
  await dialog.waitFor();
  await dialog.getByRole('button', { name: 'Stop' }).click();
  await cell(page, 'alpha', 'Stopped').waitFor();
  await eventually(async () => (await statusOf('alpha')) === 'Stopped', WAIT, 'alpha Stopped in the API');
  await page.locator('[role=status]', { hasText: 'stopped alpha' }).waitFor();

  // Keyboard: the table takes arrows, space marks, s starts, Enter confirms.
  await page.getByLabel('Mark alpha').click(); // unmark; alpha stays the cursor row
  await page.locator('.table-box').focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('s');
  await page.getByRole('dialog', { name: 'Start alpha?' }).waitFor();
  await page.keyboard.press('Enter');
  await cell(page, 'alpha', 'Running').waitFor();
  assert.equal(await statusOf('alpha'), 'Running');

  // Sort and filter.
  await page.getByRole('button', { name: 'Status' }).click();
  assert.equal(await page.locator('tbody tr[data-name]').first().getAttribute('data-name'), 'crashy');
  await page.getByLabel('Filter programs').fill('bet');
  await page.locator('tbody tr[data-name]').first().waitFor();
  assert.deepEqual(await page.locator('tbody tr[data-name]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-name'))), ['beta']);
  await close(page);
});

void test('Enter and Space on a control inside the table work that control, not the table command', { skip }, async () => {
  const one = await add({ name: 'kb-one', command: 'true', autostart: false });
  const two = await add({ name: 'kb-two', command: 'true', autostart: false });
  const page = await open('/');
  await page.getByLabel('Filter programs').fill('kb-');
  await cell(page, 'kb-two', 'Stopped').waitFor();
  const marked = () => page.locator('tbody tr[aria-selected="true"]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-name')));
  // A sort button sorts with Enter and with Space (and Space marks nothing).
  await page.getByRole('button', { name: 'Status' }).focus();
  await page.keyboard.press('Enter');
  await page.locator('th.c-status[aria-sort="ascending"]').waitFor();
  await page.keyboard.press(' ');
  await page.locator('th.c-status[aria-sort="descending"]').waitFor();
  assert.deepEqual(await marked(), []);
  // Space on a row's box marks that row; on the header box, every row shown.
  await page.getByLabel('Mark kb-two').focus();
  await page.keyboard.press(' ');
  assert.equal(await page.getByLabel('Mark kb-two').isChecked(), true);
  assert.deepEqual(await marked(), ['kb-two']);
  await page.getByLabel('Mark every program shown').focus();
  await page.keyboard.press(' ');
  assert.deepEqual((await marked()).sort(), ['kb-one', 'kb-two']);
  // Enter on a name link opens that program, whichever row is the cursor.
  await page.locator('tr[data-name="kb-one"] td.c-pid').click();
  await page.locator('tr[data-name="kb-two"] .c-name a').focus();
  await page.keyboard.press('Enter');
  await page.waitForURL(`**/#/programs/${two}`);
  assert.notEqual(one, two);
  await close(page);
});

void test('a page change moves the focus into the new page: the heading of a program, the table back on Programs (not the body)', { skip }, async () => {
  const id = await add({ name: 'kb-page', command: 'true', autostart: false });
  const page = await open('/');
  await page.getByLabel('Filter programs').fill('kb-page');
  await cell(page, 'kb-page', 'Stopped').waitFor();
  await page.locator('tr[data-name="kb-page"] .c-name a').focus();
  await page.keyboard.press('Enter');
  await page.waitForURL(`**/#/programs/${id}`);
  const focused = () => page.evaluate(() => `${document.activeElement?.tagName}#${document.activeElement?.id || document.activeElement?.className}`);
  await eventually(async () => (await focused()) === 'H1#program-title', WAIT, 'the program heading focused');
  await page.keyboard.press('1'); // the Programs page
  await eventually(async () => (await focused()) === 'DIV#table-box' || (await focused()).endsWith('table-box'), WAIT, 'the table focused');
  await page.keyboard.press('2'); // Events
  await eventually(async () => (await focused()) === 'H1#events-title', WAIT, 'the events heading focused');
  await close(page);
});

void test('after a dialog closes (Esc, or confirmed with Enter) the focus is back in the table, so its keys go on working', { skip }, async () => {
  await add({ name: 'kb-focus', command: 'true', autostart: false });
  const page = await open('/');
  await page.getByLabel('Filter programs').fill('kb-focus');
  await cell(page, 'kb-focus', 'Stopped').waitFor();
  await page.locator('.table-box').focus();
  await page.keyboard.press('ArrowDown');
  const focused = () => page.evaluate(() => document.activeElement?.className);
  await page.keyboard.press('r');
  await page.getByRole('dialog', { name: 'Restart kb-focus?' }).waitFor();
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').waitFor({ state: 'detached' });
  assert.equal(await focused(), 'table-box');
  await page.keyboard.press('s');
  await page.getByRole('dialog', { name: 'Start kb-focus?' }).waitFor();
  await page.keyboard.press('Enter');
  await page.locator('[role=status]', { hasText: 'started kb-focus' }).waitFor();
  assert.equal(await focused(), 'table-box');
  await page.keyboard.press('?');
  await page.getByRole('dialog', { name: 'Keyboard' }).waitFor();
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').waitFor({ state: 'detached' });
  assert.equal(await focused(), 'table-box');
  await close(page);
});

void test('the table follows GET /api/v1/watch: programs added, changed and removed elsewhere show without polling the list', { skip }, async () => {
  await add({ name: 'watch-a', command: process.execPath, args: [fixture('forever.js')] });
  const page = await open('/');
  const requests: string[] = [];
  page.on('request', (r) => requests.push(`${r.method()} ${new URL(r.url()).pathname}`));
  await cell(page, 'watch-a', 'Running').waitFor();
  const id = await add({ name: 'watch-b', command: process.execPath, args: [fixture('forever.js')] });
  await cell(page, 'watch-b', 'Running').waitFor();
  assert.equal((await d.request('POST', `/api/v1/programs/${id}/stop`)).status, 200);
  await cell(page, 'watch-b', 'Stopped').waitFor();
  assert.equal((await d.request('DELETE', `/api/v1/programs/${id}`)).status, 200);
  await page.locator('tr[data-name="watch-b"]').waitFor({ state: 'detached' });
  assert.deepEqual(requests.filter((r) => r === 'GET /api/v1/programs'), [], 'the list is never polled');
  await close(page);
});

void test('Reload from the table (R, confirmed): the result line says how it was carried out, and the program has a new process', { skip }, async () => {
  const id = await add({ name: 'reloadable', command: process.execPath, args: [fixture('forever.js')] });
  const page = await open('/');
  await cell(page, 'reloadable', 'Running').waitFor();
  const before = (await d.request('GET', `/api/v1/programs/${id}`)).body.pid as number;
  await page.getByLabel('Mark reloadable').click();
  await page.locator('.table-box').focus();
  await page.keyboard.press('Shift+R');
  const dialog = page.getByRole('dialog', { name: 'Reload reloadable?' });
  await dialog.waitFor();
  await dialog.getByRole('button', { name: 'Reload' }).click();
  await page.locator('[role=status]', { hasText: 'reloaded reloadable; reloadable: no health check: restarted, with downtime' }).waitFor();
  await eventually(async () => {
    const now = (await d.request('GET', `/api/v1/programs/${id}`)).body as { pid: number | null; status: string };
    return now.status === 'Running' && now.pid !== null && now.pid !== before;
  }, WAIT, 'a new process');
  await close(page);
});

void test('a removed program whose process is still stopping reads Removing in the table until it has ended', { skip }, async () => {
  const id = await add({ name: 'stubborn-web', command: process.execPath, args: [fixture('ignore-term.js')], stopsecs: 120 });
  await eventually(async () => ((await d.request('GET', `/api/v1/programs/${id}/logs`)).body as { logs: { content: string }[] }).logs.some((l) => l.content === 'ready'), WAIT, 'its SIGTERM handler in place');
  const page = await open('/');
  await cell(page, 'stubborn-web', 'Running').waitFor();
  // Removed by a request nobody waits for (an interrupted svc rm): the process ignores SIGTERM.
  const abandoned = new AbortController();
  const removal = fetch(`${d.url}/api/v1/programs/${id}`, { method: 'DELETE', signal: abandoned.signal }).catch(() => null);
  await cell(page, 'stubborn-web', 'Removing').waitFor();
  abandoned.abort();
  await removal;
  // Remove with force, from the table, ends it at once.
  await page.getByLabel('Mark stubborn-web').click();
  await page.getByRole('toolbar', { name: 'Actions on marked programs' }).getByRole('button', { name: 'Remove' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove stubborn-web?' });
  await dialog.getByLabel('Force (SIGKILL now, no grace period)').check();
  await dialog.getByRole('button', { name: 'Remove' }).click();
  await page.locator('tr[data-name="stubborn-web"]').waitFor({ state: 'detached' });
  assert.equal((await d.request('GET', `/api/v1/programs/${id}`)).status, 404);
  await close(page);
});

void test('a program removed by another client while its page is open shows as not found, without its old state', { skip }, async () => {
  const id = await add({ name: 'gone-soon', command: process.execPath, args: [fixture('forever.js')] });
  const page = await open(`/#/programs/${id}`);
  await page.locator('.fact', { hasText: /PID\s*\d+/ }).waitFor();
  assert.equal((await d.request('DELETE', `/api/v1/programs/${id}`)).status, 200);
  await page.getByRole('heading', { name: 'Program not found' }).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Stop' }).count(), 0, 'no actions on a removed program');
  assert.equal(await page.locator('.fact').count(), 0, 'no stale state');
  await close(page);
});

void test('svcd unreachable when the page opens: the page says so and recovers by itself once svcd answers', { skip }, async () => {
  const context = await browser().newContext({ viewport: { width: 1280, height: 760 } });
  const page = await context.newPage();
  page.setDefaultTimeout(PAGE_TIMEOUT);
  let refused = 0;
  await page.route('**/api/v1/auth/status', (r) => (refused++ === 0 ? r.abort('connectionrefused') : r.continue()));
  try {
    await page.goto(`${d.url}/#/programs`);
    await page.locator('[role=alert]', { hasText: 'svcd is not reachable' }).waitFor();
    await page.locator('text=retrying').waitFor();
    await page.getByRole('heading', { name: 'Programs' }).waitFor(); // no click on Retry
    assert.ok(refused >= 2);
  } finally {
    await context.close();
  }
});

void test('the program page follows its logs over the WebSocket: live, pause, search, stream toggle', { skip }, async () => {
  const id = await add({ name: 'ticker', command: process.execPath, args: [fixture('ticker.js'), '150'] });
  const page = await open(`/#/programs/${id}/logs`);
  await page.locator('.live-dot', { hasText: 'live' }).waitFor();
  const lastTick = async () => Number(/tick (\d+)\s*$/.exec((await page.locator('.log-line.stdout').allInnerTexts()).join('\n'))?.[1] ?? -1);
  await eventually(async () => (await lastTick()) >= 0, WAIT, 'first log lines');
  const first = await lastTick();
  await eventually(async () => (await lastTick()) > first + 2, WAIT, 'new lines streamed in');
  await shot(page, 'program-logs');

  await page.getByRole('button', { name: 'Pause' }).click();
  const held = await lastTick();
  await page.getByRole('button', { name: /Resume \(\d+ new\)/ }).waitFor();
  assert.equal(await lastTick(), held, 'a paused view does not move');
  await page.getByRole('button', { name: /Resume/ }).click();
  await eventually(async () => (await lastTick()) > held, WAIT, 'lines after resume');
  // Clear view while paused: the view stays empty while new lines are held back.
  await page.getByRole('button', { name: 'Pause' }).click();
  await page.getByRole('button', { name: 'Clear view' }).click();
  await page.getByRole('button', { name: /Resume \(\d+ new\)/ }).waitFor();
  assert.equal(await page.locator('.log-line').count(), 0, 'a cleared paused view stays empty');
  await page.getByRole('button', { name: /Resume/ }).click();
  await page.locator('.log-line.stdout').first().waitFor();

  await page.getByLabel('Search logs').fill('tock');
  await eventually(async () => (await page.locator('.log-line.stdout').count()) === 0 && (await page.locator('.log-line.stderr mark').count()) > 0, WAIT, 'only tock lines, highlighted');
  await page.getByLabel('stderr').uncheck();
  await eventually(async () => (await page.locator('.log-line').count()) === 0, WAIT, 'stderr hidden');

  // Events tab: the history with the spec's filters; a bad exit code shows the daemon's message.
  await page.getByRole('tab', { name: 'Events' }).click();
  await page.locator('.event-table td', { hasText: 'process_started' }).first().waitFor();
  await page.getByLabel('Exit code').fill('abc');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.locator('.field-error', { hasText: 'exit_code' }).waitFor();

  // The tabs take the arrow keys (WAI-ARIA tab pattern); only the selected tab is in the tab order.
  await page.getByRole('tab', { name: 'Events' }).focus();
  await page.keyboard.press('ArrowRight');
  await page.locator('#tab-config[aria-selected="true"]').waitFor();
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'tab-config');
  await page.keyboard.press('Home');
  await page.locator('#tab-overview[aria-selected="true"]').waitFor();
  assert.deepEqual(await page.locator('[role="tab"]').evaluateAll((els) => els.map((e) => e.getAttribute('tabindex'))), ['0', '-1', '-1', '-1']);
  assert.equal(await page.getByRole('tabpanel').getAttribute('aria-labelledby'), 'tab-overview');

  await page.getByRole('tab', { name: 'Overview' }).click();
  await page.locator('figure.chart', { hasText: 'CPU' }).waitFor();
  assert.ok((await page.locator('figure.chart path.line').count()) >= 1, 'a chart line is drawn');
  await shot(page, 'program-overview');
  await close(page);
});

void test('the logs open at their last line, also when lines wrap (laid out at their real height only once in view)', { skip }, async () => {
  // 600 JSON-ish lines that wrap to two or three rows each, then a last line, then quiet: the
  // view jumped to the bottom as if each line were one row high and stopped short of the end.
  const script = "for (let i = 0; i < 600; i++) console.log(JSON.stringify({ i, msg: 'request handled '.repeat(14) })); console.log('THE LAST LINE'); setInterval(() => {}, 1e6);";
  const id = await add({ name: 'wrapped-logs', command: process.execPath, args: ['-e', script] });
  const page = await open(`/#/programs/${id}/logs`);
  const last = page.locator('.log-line', { hasText: 'THE LAST LINE' });
  await last.waitFor({ state: 'attached' });
  const inView = () =>
    last.evaluate((line) => {
      const box = line.closest('.log-lines')!.getBoundingClientRect();
      const r = line.getBoundingClientRect();
      return r.top >= box.top && r.bottom <= box.bottom;
    });
  await eventually(inView, WAIT, 'the last line in view');
  // Scrolled up by the user, the view stays where it was.
  await page.locator('.log-lines').evaluate((el) => el.scrollTo({ top: el.scrollHeight / 2 }));
  // The lines now in view are laid out (the text's height changes) over the next frames.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 0)))));
  assert.equal(await inView(), false, 'the view stays where the user scrolled');
  await close(page);
});

const STACK = `[[services]]
name = "stacked-web"
command = "${process.execPath}"
args = ["${fixture('forever.js')}"]

[[services]]
name = "stacked-job"
command = "true"
cron = "*/10 * * * *"
`;

/** aria-describedby ids that name no element on the page (a field described by an error not shown). */
const danglingDescriptions = (page: Awaited<ReturnType<typeof open>>) =>
  page.evaluate(() => [...document.querySelectorAll('[aria-describedby]')].flatMap((el) => (el.getAttribute('aria-describedby') ?? '').split(/\s+/).filter((id) => id && !document.getElementById(id))));

void test('the stack page shows the dry-run plan first, then applies exactly that', { skip }, async () => {
  const page = await open('/#/stack');
  await page.getByRole('textbox', { name: 'Stack' }).waitFor();
  assert.deepEqual(await danglingDescriptions(page), [], 'no field points at an error that is not there');
  await page.getByRole('textbox', { name: 'Stack' }).fill('[[services]]\nname = "x"\ncommand = "true"\nmax_concurrent = 100\n');
  await page.getByRole('button', { name: 'Plan (dry run)' }).click();
  await page.locator('#stack-error', { hasText: /services\[0\] \(name=x\).*max_concurrent/ }).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Apply' }).isDisabled(), true);

  await page.getByRole('textbox', { name: 'Stack' }).fill(STACK);
  await page.getByRole('button', { name: 'Plan (dry run)' }).click();
  await page.locator('.plan-summary', { hasText: 'Dry run: 2 to create' }).waitFor();
  await page.locator('.plan-created li', { hasText: 'stacked-web' }).waitFor();
  assert.equal(await statusOf('stacked-web'), undefined, 'a dry run writes nothing');
  await shot(page, 'stack-plan');
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.locator('.plan-summary', { hasText: 'Applied: 2 created' }).waitFor();
  await eventually(async () => (await statusOf('stacked-web')) === 'Running', WAIT, 'stacked-web running');
  const detail = (await d.request('GET', '/api/v1/stack')).body as { services: { name: string; source: string }[] };
  assert.equal(detail.services.find((s) => s.name === 'stacked-job')?.source, 'stack:dashboard');
  await close(page);
});

void test('the stack page applies the plan it showed or nothing: a program changed meanwhile refuses the apply and asks for a new plan', { skip }, async () => {
  const page = await open('/#/stack');
  await page.getByRole('textbox', { name: 'Stack' }).fill('[[services]]\nname = "reviewed-web"\ncommand = "true"\nautostart = false\n');
  await page.getByRole('button', { name: 'Plan (dry run)' }).click();
  await page.locator('.plan-summary', { hasText: 'Dry run: 1 to create' }).waitFor();
  // Someone else adds reviewed-web before the Apply: the plan shown (create) is no longer what would happen.
  assert.equal((await d.request('POST', '/api/v1/programs', { name: 'reviewed-web', command: 'true', autostart: false, cwd: '/' })).status, 201);
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.locator('#stack-error', { hasText: /plan: the plan is [0-9a-f]{16} now, not [0-9a-f]{16}.*nothing was changed/ }).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Apply' }).isDisabled(), true, 'the refused plan is gone: plan again');
  assert.equal(((await d.request('GET', '/api/v1/stack')).body as { services: { name: string; cwd?: string }[] }).services.find((x) => x.name === 'reviewed-web')?.cwd, '/', 'nothing was changed');
  await page.getByRole('button', { name: 'Plan (dry run)' }).click();
  await page.locator('.plan-summary', { hasText: 'Dry run: 1 to update' }).waitFor();
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.locator('.plan-summary', { hasText: 'Applied: 1 updated' }).waitFor();
  await close(page);
});

void test('a pasted stack with errors: its places read "line L, column C" (no file) and each puts the caret there', { skip }, async () => {
  const page = await open('/#/stack');
  const editor = page.getByRole('textbox', { name: 'Stack' });
  await editor.fill('[[services]]\nname = "p1"\ncommand = "true"\nbogus = 1\n');
  await page.getByRole('button', { name: 'Plan (dry run)' }).click();
  const note = page.locator('#stack-error');
  await note.getByRole('button', { name: 'line 4, column 1' }).waitFor();
  assert.equal(await note.innerText(), 'services[0] (name=p1): bogus: unknown field at line 4, column 1');
  await note.getByRole('button', { name: 'line 4, column 1' }).click();
  assert.deepEqual(await editor.evaluate((el: HTMLTextAreaElement) => [document.activeElement === el, el.value.slice(el.selectionStart, el.selectionEnd)]), [true, 'bogus = 1']);
  await editor.fill('[[services]]\nname = "p1"\ncommand = "true"\nbad line\n');
  await page.getByRole('button', { name: 'Plan (dry run)' }).click();
  await note.getByRole('button', { name: 'line 4, column 5' }).click();
  assert.deepEqual(await editor.evaluate((el: HTMLTextAreaElement) => el.value.slice(el.selectionStart, el.selectionEnd)), 'line');
  assert.doesNotMatch(await note.innerText(), /stack\.toml/);
  await close(page);
});

void test('adding a program: a bad field shows the daemon message next to it, a good one lands in the table', { skip }, async () => {
  const page = await open('/');
  await page.getByRole('button', { name: 'Add program' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a program' });
  await dialog.getByLabel('Name').fill('added');
  await dialog.getByLabel('Command').fill('true');
  await dialog.getByLabel('Cron schedule (optional)').fill('not a schedule');
  await dialog.getByRole('button', { name: 'Add program' }).click();
  await dialog.locator('#err-cron', { hasText: /program 'added': cron:/ }).waitFor();
  await dialog.getByLabel('Cron schedule (optional)').fill('');
  // A field given in "Other fields" is named under that box.
  await dialog.getByLabel('Other fields (JSON object, optional)').fill('{"health_check": {"type": "tcp"}}');
  await dialog.getByRole('button', { name: 'Add program' }).click();
  await dialog.locator('#err-extra', { hasText: /health_check/ }).waitFor();
  await dialog.getByLabel('Other fields (JSON object, optional)').fill('');
  await dialog.getByLabel('Command').fill(process.execPath);
  await dialog.getByLabel('Arguments').fill(fixture('forever.js'));
  await dialog.getByRole('button', { name: 'Add program' }).click();
  await cell(page, 'added', 'Running').waitFor();
  await close(page);
});

void test('editing a configuration: an unknown field is refused naming its line in the editor, nothing is saved; a good edit is', { skip }, async () => {
  const id = await add({ name: 'edited', command: 'true', autostart: false, stopsecs: 5 });
  const page = await open(`/#/programs/${id}/config`);
  await page.getByRole('button', { name: 'Edit configuration' }).click();
  const editor = page.getByRole('textbox', { name: /Configuration/ });
  const lines = (await editor.inputValue()).replace('"stopsecs": 5', '"stopsecs": 9').split('\n');
  const at = lines.findIndex((l) => l.startsWith('  "command"'));
  assert.ok(at > 0, 'command is in the editor');
  lines.splice(at + 1, 0, '  "bogus_field": 1,');
  await editor.fill(lines.join('\n'));
  await page.getByRole('button', { name: 'Save' }).click();
  // The daemon names the line of the text the user sees (it counted lines of a one-line body).
  await page.locator('#config-error', { hasText: `bogus_field: unknown field at JSON line ${at + 2} ` }).waitFor();
  assert.equal((await d.request('GET', `/api/v1/programs/${id}`)).body.config.stopsecs, 5, 'a refused edit changes nothing');
  await editor.fill(lines.filter((l) => !l.includes('bogus_field')).join('\n'));
  await page.getByRole('button', { name: 'Save' }).click();
  await page.locator('[role=status]', { hasText: 'Saved.' }).waitFor();
  const saved = (await d.request('GET', `/api/v1/programs/${id}`)).body.config as { stopsecs: number; source: string };
  assert.deepEqual([saved.stopsecs, saved.source], [9, 'web:update']);
  await close(page);
});

void test('editing a configuration that svcd changed meanwhile: the save names the fields and overwrites them only when told to', { skip }, async () => {
  const id = await add({ name: 'edited-twice', command: 'true', autostart: false, stopsecs: 5 });
  const page = await open(`/#/programs/${id}/config`);
  await page.getByRole('button', { name: 'Edit configuration' }).click();
  const editor = page.getByRole('textbox', { name: /Configuration/ });
  // The editor's name reads as one line (its <code> part stacked under the text, then the ')').
  const [label, code] = await page.locator('form.config label').evaluate((l) => [l.getBoundingClientRect().top, l.querySelector('code')!.getBoundingClientRect().top]);
  assert.ok(code - label < 8, `svc update on the label's first line (${code - label} px below its top)`);
  await editor.fill((await editor.inputValue()).replace('"stopsecs": 5', '"stopsecs": 9'));
  // Another client changes the environment while the text is being edited.
  assert.equal((await d.request('PUT', `/api/v1/programs/${id}`, { env: { FROM_ELSEWHERE: '1' } })).status, 200);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const warning = page.locator('[role=alert]', { hasText: 'changed while you were editing' });
  await warning.waitFor();
  assert.match(await warning.innerText(), /\(([a-z_]+, )*env[,)]/, 'names the field changed elsewhere');
  let config = (await d.request('GET', `/api/v1/programs/${id}`)).body.config as { stopsecs: number; env?: Record<string, string> };
  assert.deepEqual([config.stopsecs, config.env], [5, { FROM_ELSEWHERE: '1' }], 'nothing saved over the other change');
  // Loading svcd's copy keeps the other change; the edit made again on it saves both.
  await page.getByRole('button', { name: "Discard my edit, load svcd's" }).click();
  assert.match(await editor.inputValue(), /FROM_ELSEWHERE/);
  await editor.fill((await editor.inputValue()).replace('"stopsecs": 5', '"stopsecs": 9'));
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.locator('[role=status]', { hasText: 'Saved.' }).waitFor();
  config = (await d.request('GET', `/api/v1/programs/${id}`)).body.config as typeof config;
  assert.deepEqual([config.stopsecs, config.env], [9, { FROM_ELSEWHERE: '1' }]);
  // Told to, it overwrites.
  await page.getByRole('button', { name: 'Edit configuration' }).click();
  assert.equal((await d.request('PUT', `/api/v1/programs/${id}`, { stopsecs: 3 })).status, 200);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByRole('button', { name: 'Save mine anyway' }).click();
  await page.locator('[role=status]', { hasText: 'Saved.' }).waitFor();
  assert.equal((await d.request('GET', `/api/v1/programs/${id}`)).body.config.stopsecs, 9);
  await close(page);
});

void test('unsaved input survives a look at another page: the stack text and a configuration being edited are there on return', { skip }, async () => {
  const id = await add({ name: 'drafted', command: 'true', autostart: false, stopsecs: 5 });
  const page = await open('/#/stack');
  const stack = page.getByRole('textbox', { name: 'Stack' });
  await stack.fill('[[services]]\nname = "draft-only"\ncommand = "true"\n');
  await page.getByRole('checkbox', { name: /Prune programs/ }).check();
  const nav = page.getByRole('navigation', { name: 'Pages' });
  await nav.getByRole('link', { name: 'Events', exact: true }).click();
  await page.getByRole('heading', { name: 'Events' }).waitFor();
  await page.goBack();
  await stack.waitFor();
  assert.equal(await stack.inputValue(), '[[services]]\nname = "draft-only"\ncommand = "true"\n');
  assert.equal(await page.getByRole('checkbox', { name: /Prune programs/ }).isChecked(), true);

  await page.goto(`${d.url}/#/programs/${id}/config`);
  await page.getByRole('button', { name: 'Edit configuration' }).click();
  const editor = page.getByRole('textbox', { name: /Configuration/ });
  await editor.fill((await editor.inputValue()).replace('"stopsecs": 5', '"stopsecs": 7'));
  await nav.getByRole('link', { name: 'Programs', exact: true }).click();
  await page.getByRole('heading', { name: 'Programs' }).waitFor();
  await page.goBack();
  await editor.waitFor();
  assert.match(await editor.inputValue(), /"stopsecs": 7/, 'the edit is still in the editor');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.locator('[role=status]', { hasText: 'Saved.' }).waitFor();
  assert.equal((await d.request('GET', `/api/v1/programs/${id}`)).body.config.stopsecs, 7);
  await close(page);
});

void test('events and system pages; a dark theme follows the system; a phone width has no sideways scroll', { skip }, async () => {
  const page = await open('/#/events', { colorScheme: 'dark' });
  await page.locator('.event-table td', { hasText: 'system_startup' }).first().waitFor();
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.equal(bg, 'rgb(15, 18, 24)');
  await shot(page, 'events-dark');
  await page.goto(`${d.url}/#/system`);
  await page.locator('.card', { hasText: 'No license: open mode, no plugins loaded.' }).waitFor();
  await page.locator('.card', { hasText: /Version\s*0\.\d+\.\d+/ }).waitFor();
  await shot(page, 'system-dark');
  await close(page);

  const phone = await open('/', { viewport: { width: 390, height: 800 }, isMobile: true, hasTouch: true });
  await cell(phone, 'alpha', 'Running').waitFor();
  assert.ok(await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), 'no horizontal overflow');
  assert.equal(await phone.locator('tr[data-name="alpha"] .c-source').isVisible(), false);
  // The header is two rows: brand and status, then the page links on one line (they stacked into a column 140 px tall).
  const tops = await phone.locator('header.top nav a').evaluateAll((links) => links.map((a) => Math.round(a.getBoundingClientRect().top)));
  assert.equal(new Set(tops).size, 1, `the page links are one row (tops ${tops.join(', ')})`);
  const header = await phone.locator('header.top').boundingBox();
  assert.ok(header && header.height < 100, `header ${header?.height} px tall`);
  await shot(phone, 'programs-phone');
  await close(phone);
});

void test('at phone width the events page does not scroll sideways, even with a 64-character program name', { skip }, async () => {
  const name = 'a-program-name-of-sixty-four-characters-in-the-program-picker-64';
  assert.equal(name.length, 64);
  await add({ name, command: 'true', autostart: false });
  const phone = await open('/#/events', { viewport: { width: 390, height: 800 } });
  await phone.locator(`select[name="program_id"] option`, { hasText: name }).waitFor({ state: 'attached' });
  await phone.locator('.event-table').waitFor();
  assert.ok(await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), 'no horizontal overflow');
  await close(phone);
});

void test('without the ui plugin no extension panel appears and their routes are never called', { skip }, async () => {
  const page = await open('/#/programs');
  const calls: string[] = [];
  page.on('request', (req) => calls.push(new URL(req.url()).pathname));
  await page.reload();
  await cell(page, 'alpha', 'Running').waitFor();
  for (const hash of ['#/system', '#/x/tokens', '#/x/audit', '#/x/notify']) {
    await page.goto(`${d.url}/${hash}`);
    await page.locator('h1').first().waitFor();
  }
  await page.locator('text=needs the ui plugin').waitFor();
  assert.equal(await page.locator('nav a.ext').count(), 0);
  assert.ok(calls.includes('/api/v1/system/ui'), 'the dashboard asked which panels exist');
  const forbidden = calls.filter((p) => /^\/api\/v1\/(auth\/tokens|audit|system\/notify)/.test(p));
  assert.deepEqual(forbidden, []);
  await close(page);
});

// The panels' own pages with the daemon side simulated (page.route): their answers are fixed, so
// each panel's table, form and secret display are checked exactly. The test after it runs them
// against a real svcd with ui.so and a license (docs/web.md, "Testing with the ui plugin").
void test('when the daemon lists extension panels they appear and call the spec routes (daemon side simulated)', { skip }, async () => {
  const context = await browser().newContext({ viewport: { width: 1280, height: 760 } });
  const page = await context.newPage();
  page.setDefaultTimeout(PAGE_TIMEOUT);
  const created: unknown[] = [];
  const json = (body: unknown) => ({ status: 200, contentType: 'application/json', body: JSON.stringify(body) });
  await page.route('**/api/v1/system/ui', (r) => r.fulfill(json({ plugin_version: '1.0.0', panels: [{ id: 'tokens', title: 'Tokens', min_role: 'admin' }, { id: 'audit', title: 'Audit log', min_role: 'admin' }, { id: 'notify', title: 'Notify', min_role: 'operator' }] })));
  await page.route('**/api/v1/auth/tokens', (r) => {
    if (r.request().method() === 'POST') {
      created.push(r.request().postDataJSON());
      return r.fulfill(json({ id: 't2', name: 'deploy', role: 'operator', secret: 'sk-fresh-secret' }));
    }
    return r.fulfill(json([{ id: 't1', name: 'ci', role: 'viewer', created_at: 1700000000 }]));
  });
  await page.route('**/api/v1/audit?*', (r) => r.fulfill(json({ entries: [{ ts: 1700000000, actor: 'admin', action: 'program.stop', target: 'alpha' }] })));
  await page.route('**/api/v1/system/notify', (r) => r.fulfill(json({ channels: [{ name: 'ops-chat', url: 'https://chat.example/hook' }] })));
  await page.goto(`${d.url}/#/x/tokens`);
  await page.locator('nav a.ext', { hasText: 'Audit log' }).waitFor();
  await page.locator('td', { hasText: 'ci' }).first().waitFor();
  await page.getByLabel('Name').fill('deploy');
  await page.getByLabel('Role').selectOption('operator');
  await page.getByRole('button', { name: 'Create token' }).click();
  await page.locator('code.secret', { hasText: 'sk-fresh-secret' }).waitFor();
  assert.deepEqual(created, [{ name: 'deploy', role: 'operator' }]);
  await page.locator('nav a.ext', { hasText: 'Audit log' }).click();
  await page.locator('td', { hasText: 'program.stop' }).waitFor();
  await page.locator('nav a.ext', { hasText: 'Notify' }).click();
  await page.locator('li', { hasText: 'ops-chat' }).getByRole('button', { name: 'Send a test' }).waitFor();
  await context.close();
});

void test('with ui.so and a license granting ui: each role sees the extension panels it may use, and they work against svcd', { skip }, async () => {
  const secret = 'ui-plugin-admin-secret';
  const root = tempRoot('svc-web-ui-');
  const signer = testSigner();
  const licensed = await startDaemon(root, { config: licensedRoot(root, signer, { key: signer.issue({ grants: ['security', 'ui', 'notify'] }), secret, plugins: ['security', 'ui', 'notify'] }) });
  const signIn = async (bearer: string) => {
    const page = await open('/', { viewport: { width: 1280, height: 760 } }, licensed.url);
    await page.getByLabel('Secret or token').fill(bearer);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('.badge.role').waitFor();
    return page;
  };
  const panels = async (page: Page) => {
    await page.goto(`${licensed.url}/#/system`);
    await page.locator('h1').first().waitFor();
    // The nav is drawn once GET /api/v1/system/ui has answered; the System page asks it too.
    await eventually(async () => (await page.locator('nav a.ext').count()) > 0 || (await page.locator('text=needs the ui plugin').count()) > 0 || null, 10_000, 'the panels read');
    return page.locator('nav a.ext').allInnerTexts();
  };
  try {
    const admin = await signIn(secret);
    assert.deepEqual(await panels(admin), ['Tokens', 'Audit log', 'Notify']);
    await admin.locator('nav a.ext', { hasText: 'Tokens' }).click();
    await admin.getByLabel('Name').fill('deploy');
    await admin.getByLabel('Role').selectOption('operator');
    await admin.getByRole('button', { name: 'Create token' }).click();
    const operatorSecret = (await admin.locator('code.secret').innerText()).trim();
    assert.match(operatorSecret, /^sk-/);
    await admin.locator('nav a.ext', { hasText: 'Audit log' }).click();
    await admin.locator('td', { hasText: 'deploy' }).first().waitFor(); // the token creation, audited
    await close(admin);

    const viewerSecret = (await licensed.request('POST', '/api/v1/auth/tokens', { name: 'reader', role: 'viewer' }, { authorization: `Bearer ${secret}` })).body.secret as string;
    const operator = await signIn(operatorSecret);
    assert.deepEqual(await panels(operator), ['Notify']);
    await close(operator);
    const viewer = await signIn(viewerSecret);
    await viewer.goto(`${licensed.url}/#/system`);
    await viewer.locator('h1').first().waitFor();
    await eventually(async () => (await viewer.evaluate(() => performance.getEntriesByType('resource').some((e) => e.name.endsWith('/api/v1/system/ui')))) || null, 10_000, 'the panels asked for');
    assert.equal(await viewer.locator('nav a.ext').count(), 0, 'a viewer has no panel');
    await close(viewer);
  } finally {
    await licensed.stop();
    removeRoot(root);
  }
});

void test('with auth_secret: the prompt refuses a wrong secret, accepts the right one and shows the role; logs stream with it', { skip }, async () => {
  const secret = 'browser-secret-42';
  const authed = await startDaemon(undefined, { config: `[server]\nport = 0\nauth_secret = "${secret}"\n` });
  try {
    const res = await authed.request('POST', '/api/v1/programs', { name: 'guarded', command: process.execPath, args: [fixture('ticker.js'), '200'] }, { authorization: `Bearer ${secret}` });
    assert.equal(res.status, 201);
    const page = await open('/', { viewport: { width: 1100, height: 700 } }, authed.url);
    await page.getByLabel('Secret or token').fill('wrong');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('#login-error', { hasText: 'Wrong secret or token' }).waitFor();
    await shot(page, 'login');
    assert.equal(await page.evaluate(() => sessionStorage.getItem('svc.bearer')), null);
    await page.getByLabel('Secret or token').fill(secret);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('.badge.role', { hasText: 'admin' }).waitFor();
    await page.locator('tr[data-name="guarded"]').waitFor();
    assert.equal(await page.evaluate(() => sessionStorage.getItem('svc.bearer')), secret);
    assert.equal(await page.evaluate(() => localStorage.length), 0);
    // A reload keeps the session (same tab); the log WebSocket authenticates with a subprotocol,
    // so the secret is in no address (a reverse proxy logs them, the network panel shows them).
    const sockets: string[] = [];
    page.on('websocket', (ws) => sockets.push(ws.url()));
    await page.goto(`${authed.url}/#/programs/${res.body.id}/logs`);
    await page.reload();
    await page.locator('.live-dot', { hasText: 'live' }).waitFor();
    await page.locator('.log-line', { hasText: 'tick' }).first().waitFor();
    assert.ok(sockets.length > 0);
    assert.deepEqual(sockets.filter((url) => url.includes(secret) || url.includes('token=')), [], 'no credential in a WebSocket address');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Secret or token').waitFor();
    assert.equal(await page.evaluate(() => sessionStorage.getItem('svc.bearer')), null);
    await close(page);
  } finally {
    await authed.stop();
    removeRoot(authed.root);
  }
});

void test('the table stays where the user scrolled when a change elsewhere moves the cursor row (a program added above it)', { skip }, async () => {
  const many = Array.from({ length: 60 }, (_, i) => ({ name: `scroll-${String(i).padStart(3, '0')}`, command: 'true', autostart: false }));
  assert.equal((await d.request('POST', '/api/v1/programs', many)).status, 201);
  const page = await open('/', { viewport: { width: 1280, height: 600 } });
  await page.getByLabel('Filter programs').fill('scroll-');
  await page.locator('tr[data-name="scroll-005"] td.c-pid').click(); // the cursor row
  const box = page.locator('.table-box');
  await box.evaluate((el) => (el.scrollTop = el.scrollHeight));
  await page.locator('tr[data-name="scroll-059"]').waitFor();
  const scrolled = await box.evaluate((el) => el.scrollTop);
  assert.ok(scrolled > 0);
  await add({ name: 'scroll-0000', command: 'true', autostart: false }); // sorts before the cursor row
  await page.locator('text=61 of').waitFor();
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 0)))));
  assert.equal(await box.evaluate((el) => el.scrollTop), scrolled, 'not pulled back to the cursor row');
  // Moving the cursor with the keyboard still brings its row into view.
  await box.focus();
  await page.keyboard.press('ArrowDown');
  await page.locator('tr.cursor[data-name="scroll-006"]').waitFor();
  assert.ok(await page.locator('tr.cursor').evaluate((row) => row.getBoundingClientRect().bottom <= row.closest('.table-box')!.getBoundingClientRect().bottom));
  await close(page);
});

void test('500 programs: only the rows in view are in the DOM, and the last one is reachable', { skip }, async () => {
  const many = Array.from({ length: 500 }, (_, i) => ({ name: `bulk-${String(i).padStart(3, '0')}`, command: 'true', autostart: false }));
  assert.equal((await d.request('POST', '/api/v1/programs', many)).status, 201);
  const page = await open('/');
  await page.locator('tr[data-name="bulk-000"]').waitFor();
  const rendered = await page.locator('tbody tr[data-name]').count();
  assert.ok(rendered < 60, `rendered ${rendered} rows of ${500 + 8}`);
  await page.locator('.table-box').focus();
  await page.keyboard.press('End');
  await page.locator('tr[data-name="ticker"]').waitFor(); // names sort after bulk-*
  assert.ok((await page.locator('tbody tr[data-name]').count()) < 60);
  await close(page);
});
