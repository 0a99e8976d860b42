import { createHash } from 'node:crypto';

export const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

/**
 * A program binary for OTA tests: a Node script with an absolute shebang (no PATH lookup) that
 * prints its version, listens on $PORT when set (for tcp health checks) unless `listen` is
 * false, and exits with `exitCode` after a moment when given (a broken release).
 */
export function binary(version: string, opts: { listen?: boolean; exitCode?: number } = {}): string {
  const listen = opts.listen ?? true;
  return [
    `#!${process.execPath}`,
    `const version = ${JSON.stringify(version)};`,
    `console.log('version ' + version);`,
    opts.exitCode !== undefined ? `setTimeout(() => process.exit(${opts.exitCode}), 100);` : '',
    listen ? `if (process.env.PORT) require('net').createServer((s) => s.end(version + '\\n')).listen(Number(process.env.PORT), '127.0.0.1');` : '',
    `setInterval(() => {}, 1 << 30);`,
    '',
  ].join('\n');
}

export { freePort } from './ports.js';
