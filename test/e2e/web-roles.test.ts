import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { fixture, removeRoot, startDaemon, tempRoot, type RunningDaemon } from '../helpers/daemon.js';
import { browserSkip, PAGE_TIMEOUT, useBrowser } from '../helpers/browser.js';
import { licensedRoot, testSigner } from '../helpers/license.js';

// The dashboard against a real svcd with the real security.so: each role sees the controls its
// permissions allow (docs/security.md) and no button that could only answer 403.

const skip = browserSkip();
const browser = useBrowser();
const SECRET = 'web-roles-admin-secret';
let d: RunningDaemon;
let id = '';
const tokens: Record<'viewer' | 'operator', string> = { viewer: '', operator: '' };
const admin = { authorization: `Bearer ${SECRET}` };

before(async () => {
  if (skip) return;
  const root = tempRoot();
  d = await startDaemon(root, { config: licensedRoot(root, testSigner(), { secret: SECRET }) });
  const res = await d.request('POST', '/api/v1/programs', { name: 'guarded', command: process.execPath, args: [fixture('forever.js')], env: { DB_PASSWORD: 'hunter2-hunter2' } }, admin);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  id = res.body.id as string;
  for (const role of ['viewer', 'operator'] as const) {
    const t = await d.request('POST', '/api/v1/auth/tokens', { name: `web-${role}`, role }, admin);
    assert.equal(t.status, 201, JSON.stringify(t.body));
    tokens[role] = t.body.secret as string;
  }
});

after(async () => {
  if (!d) return;
  await d.stop();
  removeRoot(d.root);
});

async function signedIn(credential: string, path = '/'): Promise<Page> {
  const context = await browser().newContext({ viewport: { width: 1280, height: 760 } });
  const page = await context.newPage();
  page.setDefaultTimeout(PAGE_TIMEOUT);
  await page.goto(`${d.url}${path}`);
  await page.getByLabel('Secret or token').fill(credential);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('.badge.role').waitFor();
  return page;
}

const buttonNames = (page: Page, scope: string) => page.locator(`${scope} button`).allInnerTexts();

void test('an operator gets start, stop, restart and signal, but no remove, edit or stack apply (admin only)', { skip }, async () => {
  const page = await signedIn(tokens.operator);
  await page.locator('tr[data-name="guarded"]').waitFor();
  const bar = page.getByRole('toolbar', { name: 'Actions on marked programs' });
  await bar.waitFor();
  assert.deepEqual(await buttonNames(page, '.action-bar'), ['Start', 'Stop', 'Restart', 'Reload', 'Signal…']);
  assert.equal(await page.getByRole('button', { name: 'Add program' }).count(), 1, 'program.create is an operator permission');
  // The Delete key does not open a removal that would be refused.
  await page.locator('.table-box').focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Delete');
  await page.keyboard.press('x');
  await page.getByRole('dialog', { name: 'Stop guarded?' }).waitFor();
  assert.equal(await page.getByRole('dialog').count(), 1);
  await page.keyboard.press('Escape');

  await page.goto(`${d.url}/#/programs/${id}/config`);
  await page.getByRole('toolbar', { name: 'Actions on guarded' }).waitFor();
  assert.deepEqual(await buttonNames(page, '[role=toolbar][aria-label="Actions on guarded"]'), ['Start', 'Stop', 'Restart', 'Reload', 'Signal…']);
  await page.locator('pre[aria-label="Configuration"]').waitFor();
  assert.match(await page.locator('pre[aria-label="Configuration"]').innerText(), /"DB_PASSWORD": "\[redacted\]"/);
  assert.equal(await page.getByRole('button', { name: 'Edit configuration' }).count(), 0, 'PUT /programs/{id} is admin only');

  await page.goto(`${d.url}/#/stack`);
  await page.locator('text=needs the admin role').waitFor();
  assert.equal(await page.getByRole('button', { name: 'Plan (dry run)' }).count(), 0, 'PUT /stack, a dry run too, is admin only');
  assert.equal(await page.getByRole('button', { name: 'Apply' }).count(), 0);
  await page.context().close();
});

void test('a viewer gets no action at all, and sees secrets redacted', { skip }, async () => {
  const page = await signedIn(tokens.viewer, `/#/programs/${id}/config`);
  await page.locator('pre[aria-label="Configuration"]').waitFor();
  assert.match(await page.locator('pre[aria-label="Configuration"]').innerText(), /"DB_PASSWORD": "\[redacted\]"/);
  assert.equal(await page.getByRole('toolbar', { name: 'Actions on guarded' }).count(), 0);
  assert.equal(await page.getByRole('button', { name: 'Edit configuration' }).count(), 0);
  await page.goto(`${d.url}/#/programs`);
  await page.locator('tr[data-name="guarded"]').waitFor();
  assert.equal(await page.getByRole('toolbar', { name: 'Actions on marked programs' }).count(), 0);
  assert.equal(await page.getByRole('button', { name: 'Add program' }).count(), 0);
  await page.goto(`${d.url}/#/stack`);
  await page.locator('text=needs the admin role').waitFor();
  assert.equal(await page.getByRole('button', { name: 'Plan (dry run)' }).count(), 0);
  await page.context().close();
});

void test('the admin secret gets remove, edit and the stack plan', { skip }, async () => {
  const page = await signedIn(SECRET, `/#/programs/${id}/config`);
  await page.getByRole('button', { name: 'Edit configuration' }).waitFor();
  assert.deepEqual(await buttonNames(page, '[role=toolbar][aria-label="Actions on guarded"]'), ['Start', 'Stop', 'Restart', 'Reload', 'Signal…', 'Remove']);
  await page.goto(`${d.url}/#/stack`);
  await page.getByRole('button', { name: 'Plan (dry run)' }).waitFor();
  await page.context().close();
});
