import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { browserSkip, PAGE_TIMEOUT, useBrowser } from '../helpers/browser.js';
import { fixture, useDaemon } from '../helpers/daemon.js';
import { freePort } from '../helpers/ports.js';

// The Stack page's "Apply waits until the programs are ready" (PUT /api/v1/stack?wait=) in a real
// browser against a real svcd: what the page shows while it waits and after.
const skip = browserSkip();
const browser = useBrowser();
const d = useDaemon();

// Written to stderr by the program that fails: the page must show it as text, never as markup.
const STDERR = '<b>bind</b> failed & <img src=x onerror=alert(1)>';

/**
 * Two programs ready (Running for 1 s; a one-shot that exits 0), then one Fatal: its health check
 * never passes (nothing listens on the port), so it is not ready while it runs, and it crashes
 * after 3 s; one not waited for (autostart = false).
 */
const stack = (port: number) =>
  JSON.stringify({
    services: [
      { name: 'w-ok', command: process.execPath, args: [fixture('forever.js')] },
      { name: 'w-once', command: 'true', autorestart: 'false' },
      { name: 'w-doomed', command: 'sh', args: ['-c', `sleep 3; printf '%s\\n' '${STDERR}' >&2; exit 4`], retry_limit: 0, health_check: { type: 'tcp', port, interval_secs: 1 } },
      { name: 'w-manual', command: 'sleep', args: ['60'], autostart: false },
    ],
  });

/** The query of each PUT /api/v1/stack the page sends, in order. */
function stackPuts(page: Page): URLSearchParams[] {
  const sent: URLSearchParams[] = [];
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (req.method() === 'PUT' && url.pathname === '/api/v1/stack') sent.push(url.searchParams);
  });
  return sent;
}

void test('apply with the wait on: the page says it waits, then shows the program ready (how), the Fatal one (why, stderr as text) and the skipped one as a failure; off, it sends no wait', { skip }, async () => {
  const context = await browser().newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(PAGE_TIMEOUT);
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('dialog', (dialog) => errors.push(`dialog: ${dialog.message()}`));
  const sent = stackPuts(page);
  try {
    await page.goto(`${d.url}/#/stack`);
    const box = page.getByRole('checkbox', { name: 'Apply waits until the programs are ready' });
    const limit = page.getByRole('combobox', { name: 'Wait at most' });
    assert.equal(await box.isChecked(), false, 'off by default');
    assert.equal(await limit.isDisabled(), true, 'no time limit to choose without the wait');
    await box.check();
    assert.equal(await limit.isEnabled(), true);
    assert.equal(await limit.inputValue(), '60');
    // Kept as the other drafts are: there again after a look at another page.
    await page.getByRole('link', { name: 'Programs' }).first().click();
    await page.goto(`${d.url}/#/stack`);
    assert.equal(await box.isChecked(), true, 'the wait option is kept as a draft');

    await page.getByRole('textbox', { name: 'Stack' }).fill(stack(await freePort()));
    await page.getByRole('button', { name: 'Plan (dry run)' }).click();
    await page.locator('.plan-summary', { hasText: 'Dry run: 4 to create' }).waitFor();
    assert.equal(sent.at(-1)?.get('dry_run'), 'true');
    assert.equal(sent.at(-1)?.has('wait'), false, 'a dry run never waits');

    const apply = page.getByRole('button', { name: 'Apply' });
    await apply.click();
    // While svcd holds the answer: the button is busy and a status line says what for.
    await page.getByRole('status').filter({ hasText: 'Applying the plan, then waiting up to 1 min for 4 programs to be ready…' }).waitFor();
    assert.equal(await apply.getAttribute('aria-busy'), 'true');
    assert.equal(await apply.innerText(), 'Applying…');
    assert.equal(await apply.isDisabled(), true);
    assert.equal(sent.at(-1)?.get('wait'), '60');
    assert.equal(sent.at(-1)?.get('dry_run'), 'false');

    const outcome = page.getByRole('region', { name: 'Readiness' });
    await outcome.waitFor();
    // The apply itself is done, and reads so; the wait reads as a failure.
    await page.locator('.plan-summary', { hasText: 'Applied: 4 created' }).waitFor();
    const summary = outcome.getByRole('alert');
    assert.match(await summary.innerText(), /^Not ready: w-doomed \(Fatal\) failed, after \d+(\.\d+)? s; 2 ready, 1 skipped$/);
    assert.ok(await summary.evaluate((el) => el.classList.contains('error-note')), 'the error styling');
    assert.deepEqual((await outcome.locator('.wait-ready li').allInnerTexts()).map((t) => t.replace(/ after [\d.]+ s$/, '')).sort(), ['w-ok Running for 1 s', 'w-once exited with code 0']);
    const failed = outcome.locator('.wait-failed li');
    assert.equal(await failed.count(), 1);
    assert.match(await failed.innerText(), /^w-doomed Fatal crashed: exit code 4, [\d.]+ s after it started; now Fatal/);
    assert.equal(await outcome.getByLabel('stderr of w-doomed').innerText(), STDERR);
    assert.equal(await outcome.locator('.wait-failed b, .wait-failed img').count(), 0, 'stderr is text, not markup');
    assert.match(await outcome.locator('.wait-skipped li').innerText(), /^w-manual Stopped$/);
    assert.equal(await apply.getAttribute('aria-busy'), 'false');
    assert.equal(await page.locator('.wait-progress').innerText(), '', 'the waiting line is gone');

    // Off: the apply sends no wait, answers at once and shows no readiness.
    await box.uncheck();
    await page.getByRole('textbox', { name: 'Stack' }).fill(JSON.stringify({ services: [{ name: 'w-later', command: process.execPath, args: [fixture('forever.js')] }] }));
    await page.getByRole('button', { name: 'Plan (dry run)' }).click();
    await page.locator('.plan-summary', { hasText: 'Dry run: 1 to create' }).waitFor();
    await apply.click();
    await page.locator('.plan-summary', { hasText: 'Applied: 1 created' }).waitFor();
    const last = sent.at(-1);
    assert.equal(last?.get('dry_run'), 'false');
    assert.ok(last?.has('plan'));
    assert.equal(last?.has('wait'), false, 'no wait parameter when the box is off');
    assert.equal(last?.has('wait_stable'), false);
    assert.equal(await outcome.count(), 0, 'no readiness without the wait');
  } finally {
    await context.close();
  }
  assert.deepEqual(errors, []);
});
