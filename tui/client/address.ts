import type { RequestOptions } from 'node:http';

/**
 * Where svcd listens, as the user wrote it: `http(s)://host:port[/base]` or `unix:/path/svcd.sock`.
 * Every URL the client builds (HTTP requests, WebSockets) comes from here.
 */
export interface DaemonAddress {
  /** As given (shown in messages, key of saved credentials). */
  url: string;
  /** http(s)://host:port[/base] without a trailing slash; http://localhost for a socket. */
  origin: string;
  socketPath: string | null;
}

export function parseAddress(url: string): DaemonAddress {
  if (url.startsWith('unix:')) return { url, origin: 'http://localhost', socketPath: url.slice('unix:'.length).replace(/^\/\//, '') };
  // `host:port` (or a bare host) without a scheme means plain HTTP, as curl reads it.
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `http://${url}`;
  let parsed: URL;
  try {
    parsed = new URL(withScheme);
  } catch {
    throw new AddressError(`--url: not an address: '${url}' (use host:port, http://host:port or unix:/path/svcd.sock)`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new AddressError(`--url: unsupported scheme '${parsed.protocol}' in '${url}' (use http, https or unix:)`);
  return { url, origin: withScheme.replace(/\/+$/, ''), socketPath: null };
}

/** A daemon address that cannot be used (a usage error for the CLI). */
export class AddressError extends Error {
  override name = 'AddressError';
}

/** node:http options for `path` (host, port, base path or socket). */
export function httpTarget(a: DaemonAddress, path: string): RequestOptions {
  if (a.socketPath) return { socketPath: a.socketPath, path };
  const u = new URL(a.origin);
  return { hostname: u.hostname.replace(/^\[|\]$/g, ''), port: u.port || undefined, path: `${u.pathname.replace(/\/+$/, '')}${path}` };
}

/** ws://host:port/path, or ws+unix:/path/svcd.sock:/path for a socket. */
export function webSocketUrl(a: DaemonAddress, path: string): string {
  return a.socketPath ? `ws+unix:${a.socketPath}:${path}` : `${a.origin.replace(/^http/, 'ws')}${path}`;
}
