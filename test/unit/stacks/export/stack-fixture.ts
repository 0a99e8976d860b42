import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES } from '../../../helpers/daemon.js';
import { loadStackText } from '../../../../stacks/load.js';
import { validateServices } from '../../../../stacks/validate-stack.js';
import type { ProgramConfig } from '../../../../state/program.js';
import type { ExportContext } from '../../../../stacks/export/types.js';

export const EXPORT_FIXTURES = join(FIXTURES, 'export');

/** The configs of test/fixtures/export/stack.toml, as the daemon would store them. */
export function exportStack(): ProgramConfig[] {
  const text = readFileSync(join(EXPORT_FIXTURES, 'stack.toml'), 'utf8');
  return validateServices(loadStackText(text, 'toml'), { logDir: '/', logDirUnknown: true, source: 'stack:shop.toml' }).map((d) => d.config);
}

/** Commands of the fixture, where every Debian machine has them (so the golden files are stable). */
const BIN: Record<string, string> = { sleep: '/bin/sleep', sh: '/bin/sh', env: '/usr/bin/env', true: '/bin/true' };

export const EXPORT_CTX: ExportContext = { root: '/srv/svc', logDir: '/srv/svc/logs', resolveExecutable: (name) => BIN[name] ?? null };
