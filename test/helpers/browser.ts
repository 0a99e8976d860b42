import { existsSync, mkdirSync } from 'node:fs';
import { before, after } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import { TIME_SCALE } from './daemon.js';

/** Debian's chromium (scripts/install-system-deps.sh); playwright-core never downloads a browser. */
export const CHROMIUM = process.env.SVC_CHROMIUM ?? '/usr/bin/chromium';

/**
 * Why browser tests are skipped, or false to run them. Under CI they always run (a missing
 * browser fails them) so that a broken set-up never passes silently.
 */
export function browserSkip(): string | false {
  if (existsSync(CHROMIUM) || process.env.CI) return false;
  return `chromium is not installed at ${CHROMIUM} (scripts/install-system-deps.sh installs it)`;
}

/** One headless browser for the whole test file. */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  before(async () => {
    if (browserSkip()) return;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--disable-gpu', '--no-first-run'], timeout: 30_000 * TIME_SCALE });
  });
  after(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('the browser is not started yet (use it inside a test)');
    return browser;
  };
}

/** Playwright's wait for an element or a page (15 s times TIME_SCALE: it only bounds a failure). */
export const PAGE_TIMEOUT = 15_000 * TIME_SCALE;

/** Where screenshots go when SVC_SCREENSHOTS names a folder (`npm run screenshots`); null otherwise. */
export function screenshotDir(): string | null {
  const dir = process.env.SVC_SCREENSHOTS;
  if (!dir) return null;
  mkdirSync(dir, { recursive: true });
  return dir;
}
