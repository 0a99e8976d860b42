import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, resolve } from 'node:path';

/**
 * How to start svcd, as the hint of "cannot reach svcd" says it: `npm start` (in the checkout)
 * when this client runs from a source checkout (dist/ beside package.json and .git), else `svcd`
 * (an installed package puts it on PATH).
 */
export function startHint(here = fileURLToPath(import.meta.url)): string {
  // dist/tui/client/start-hint.js -> the checkout is three levels up from dist/tui/client.
  const repo = resolve(here, '..', '..', '..', '..');
  const checkout = existsSync(join(repo, '.git')) && existsSync(join(repo, 'package.json'));
  return checkout ? `npm start (in ${repo})` : 'svcd';
}
