import { statSync } from 'node:fs';
import { ConfigError } from './load-config.js';
import { isLoopbackAddress, isLoopbackHost } from '../state/loopback.js';
import type { SvcConfig } from './keys.js';

/** Shorter secrets warn on a non-loopback bind. */
const MIN_NETWORK_SECRET = 16;

/**
 * The refusals and warnings that depend on more than one key (spec, Authentication: Modes).
 * Licenses and plugins are decided next, by plugins/boot (the spec's two start-up tables).
 * Returns warnings; throws ConfigError to refuse.
 */
export function checkStartup(config: SvcConfig, bindAddress: string = config.server.host): string[] {
  const warnings: string[] = [];
  const { server } = config;
  const where = config.file ?? 'embedded defaults';
  // The address svcd binds (conf/loopback.ts resolveBindHost), not the name as spelled.
  const loopback = isLoopbackAddress(bindAddress) || (bindAddress === server.host && isLoopbackHost(server.host));
  if (!server.socket_only && !loopback && !server.auth_secret) {
    const resolved = bindAddress !== server.host ? ` (resolves to ${bindAddress})` : '';
    throw new ConfigError(`${where}: server.host = "${server.host}"${resolved} is not loopback and server.auth_secret is empty; refusing to serve an open API on the network (set auth_secret, bind 127.0.0.1, or use socket_only)`);
  }
  // Nothing slows guessing (every request is answered at once): on the network a short secret is a weak door.
  if (server.auth_secret && !server.socket_only && !loopback && [...server.auth_secret].length < MIN_NETWORK_SECRET) {
    warnings.push(`server.auth_secret is ${[...server.auth_secret].length} characters and svcd listens on ${server.host}, off loopback: anyone who reaches the port may try secrets as fast as svcd answers; use ${MIN_NETWORK_SECRET} or more random characters (openssl rand -hex 16)`);
  }
  if (server.auth_secret && config.file) {
    const mode = statSync(config.file).mode;
    if (mode & 0o077) warnings.push(`${config.file} holds auth_secret and is readable by group or others (mode ${(mode & 0o777).toString(8)}); chmod 600 it`);
  }
  return warnings;
}
