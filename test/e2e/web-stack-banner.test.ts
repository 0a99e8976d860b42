import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { browserSkip, PAGE_TIMEOUT, useBrowser } from '../helpers/browser.js';
import { eventually, useDaemon } from '../helpers/daemon.js';

// The dashboard shows a refused watched stack file on every page (a banner) and on the System page.
const skip = browserSkip();
const browser = useBrowser();
const d = useDaemon();

void test('a refused stack file shows a banner on every page and its position on the System page; fixing it clears both', { skip }, async () => {
  const dir = join(d.root, 'stacks');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'web.toml'), '[[services]]\nname = "b-web"\ncommand = \n');
  await eventually(async () => (await d.request('GET', '/api/v1/stack/status')).body.files.some((f: { state: string }) => f.state === 'error'), 15_000, 'web.toml refused');
  const context = await browser().newContext({ viewport: { width: 1280, height: 760 } });
  const page = await context.newPage();
  page.setDefaultTimeout(PAGE_TIMEOUT);
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  try {
    await page.goto(`${d.url}/#/programs`);
    await page.locator('.stack-banner', { hasText: /1 stack source refused.*stack:web\.toml: web\.toml:3:\d+/ }).waitFor();
    await page.locator('.stack-banner a', { hasText: 'details' }).click();
    await page.locator('.system-page li', { hasText: /web\.toml.*error.*web\.toml:3:\d+/ }).waitFor();
    await page.locator('.system-page h2', { hasText: 'Git sources' }).waitFor();
    writeFileSync(join(dir, 'web.toml'), '[[services]]\nname = "b-web"\ncommand = "sleep 100"\nautostart = false\n');
    await page.locator('.stack-banner').waitFor({ state: 'detached' });
  } finally {
    await context.close();
  }
  assert.deepEqual(errors, []);
});
