import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { distPath } from '../../conf/dist-path.js';

/**
 * How to start svcd, as the hint of "cannot reach svcd" says it: `npm start` (in the checkout)
 * when this client runs from a source checkout (dist/ beside package.json and .git), else `svcd`
 * (an installed package puts it on PATH).
 */
export function startHint(): string {
  const repo = resolve(distPath(''), '..');
  const checkout = existsSync(join(repo, '.git')) && existsSync(join(repo, 'package.json'));
  return checkout ? `npm start (in ${repo})` : 'svcd';
}
