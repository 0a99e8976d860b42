import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mustRun, runCommand } from './exec.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
/** PM2 lives in a bench-local prefix, never in the project's package.json or lock file. */
export const TOOLS = join(REPO, 'bench', '.tools');
export const PM2_DIR = join(TOOLS, 'node_modules', 'pm2');
export const PM2_BIN = join(PM2_DIR, 'bin', 'pm2');

/** Installs pm2@latest into bench/.tools when it is not there yet; returns its version. */
export async function ensurePm2(log: (msg: string) => void): Promise<string> {
  if (!existsSync(join(PM2_DIR, 'package.json'))) {
    log(`installing pm2@latest into ${TOOLS}`);
    await mustRun('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', TOOLS, 'pm2@latest']);
  }
  return (JSON.parse(readFileSync(join(PM2_DIR, 'package.json'), 'utf8')) as { version: string }).version;
}

/** Installs Debian's `supervisor` package when supervisord is missing; returns its version. */
export async function ensureSupervisord(log: (msg: string) => void): Promise<string> {
  if ((await runCommand('sh', ['-c', 'command -v supervisord'])).code !== 0) {
    log('installing supervisor (apt-get)');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    await mustRun('apt-get', ['update', '-qq'], { env });
    await mustRun('apt-get', ['install', '-y', '-qq', 'supervisor'], { env });
  }
  return (await mustRun('supervisord', ['--version'])).trim();
}

/** Installs Debian's `s6` package when s6-svscan is missing; returns its version. Starts nothing. */
export async function ensureS6(log: (msg: string) => void): Promise<string> {
  if ((await runCommand('sh', ['-c', 'command -v s6-svscan'])).code !== 0) {
    log('installing s6 (apt-get)');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    await mustRun('apt-get', ['update', '-qq'], { env });
    await mustRun('apt-get', ['install', '-y', '-qq', 's6'], { env });
  }
  const v = await runCommand('dpkg-query', ['-W', '-f', '${Version}', 's6']);
  return v.code === 0 ? v.stdout.trim() : 'unknown';
}
