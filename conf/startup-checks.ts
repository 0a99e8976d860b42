import { statSync } from 'node:fs';
import { isLoopbackHost, ConfigError } from './load-config.js';
import type { SvcConfig } from './keys.js';

/**
 * The refusals and warnings that depend on more than one key (spec, Authentication: Modes).
 * Licenses and plugins are decided next, by plugins/boot (the spec's two start-up tables).
 * Returns warnings; throws ConfigError to refuse.
 */
export function checkStartup(config: SvcConfig, _env: NodeJS.ProcessEnv = process.env): string[] {
  const warnings: string[] = [];
  const { server } = config;
  const where = config.file ?? 'embedded defaults';
  if (!server.socket_only && !isLoopbackHost(server.host) && !server.auth_secret) {
    throw new ConfigError(`${where}: server.host = "${server.host}" is not loopback and server.auth_secret is empty; refusing to serve an open API on the network (set auth_secret, bind 127.0.0.1, or use socket_only)`);
  }
  if (server.auth_secret && config.file) {
    const mode = statSync(config.file).mode;
    if (mode & 0o077) warnings.push(`${config.file} holds auth_secret and is readable by group or others (mode ${(mode & 0o777).toString(8)}); chmod 600 it`);
  }
  return warnings;
}
