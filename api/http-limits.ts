import type { Server, ServerOptions } from 'node:http';

export interface HttpLimitConfig {
  /** `[server] request_timeout_secs`: time to receive a whole request (headers and body). */
  request_timeout_secs: number;
  /** `[server] max_connections`: open connections (WebSocket streams included); more are closed at once. */
  max_connections: number;
}

/** Headers must arrive within this (or the request timeout, if shorter); also closes connections that never send a request. */
export const HEADERS_TIMEOUT_MS = 10_000;
/** An idle keep-alive connection is closed after this. */
export const KEEP_ALIVE_TIMEOUT_MS = 5_000;

/** Options for `createServer`: how often slow requests are looked for (Node's default is 30 s). */
export function httpServerOptions(): ServerOptions {
  return { connectionsCheckingInterval: 1_000 };
}

/**
 * Bounds what a client can hold (docs/configuration.md, `[server]`): a request whose body trickles
 * in is answered 408 and closed after request_timeout_secs (Node's default is 300 s); a connection
 * that sends no request is closed after 10 s; an idle keep-alive one after 5 s; at most
 * max_connections are open. A handler that takes long (stop waits for `stopsecs`) is not cut: the
 * timeout covers receiving the request only.
 */
export function applyHttpLimits(server: Server, cfg: HttpLimitConfig): void {
  const requestMs = cfg.request_timeout_secs * 1000;
  server.requestTimeout = requestMs;
  server.headersTimeout = Math.min(HEADERS_TIMEOUT_MS, requestMs);
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.maxConnections = cfg.max_connections;
}
