import { isIP } from 'node:net';
import type { Context, Next } from 'koa';
import { SvcError } from '../../state/errors.js';

/**
 * In open mode the API's only credential is being able to reach it, and every web page the
 * user visits can reach loopback. Two ways a page could use that, both refused here with 403:
 *
 * - Cross-site requests: a `POST` with a body type a form may send (no CORS preflight) reaches
 *   svcd from any origin; the page cannot read the answer but the program it created runs. A
 *   browser names the page in `Origin`; it must be svcd's own (the dashboard), or the origin
 *   a proxy in front of svcd says it served (`X-Forwarded-Host`).
 * - DNS rebinding: a page whose host name is made to resolve to 127.0.0.1 is same-origin with
 *   svcd and could read everything. Its requests carry that name in `Host`; svcd answers only
 *   an IP address, `localhost` (and `*.localhost`, which browsers keep on loopback) or its
 *   configured `[server].host`.
 *
 * With auth on, neither applies: the Bearer credential is never sent by a browser on its own.
 */
export function browserGuard(configuredHost: string) {
  return async (ctx: Context, next: Next) => {
    const refusal = browserRefusal(ctx.get('host'), ctx.get('origin'), ctx.get('x-forwarded-host'), configuredHost);
    if (refusal !== null) throw new SvcError('SVC_FORBIDDEN', refusal);
    return next();
  };
}

/** Why an open-mode request is refused, or null when it may be served (see browserGuard). */
export function browserRefusal(host: string, origin: string, forwardedHost: string, configuredHost: string): string | null {
  const name = hostName(host);
  if (name !== null && !loopbackName(name, configuredHost)) {
    return `forbidden: Host '${host}' is not an address of this svcd: without auth_secret svcd answers only requests to an IP address, localhost or [server].host (a web page could otherwise reach it by DNS rebinding)`;
  }
  if (origin === '') return null;
  const from = originHost(origin);
  const own = [host, ...forwardedHost.split(',')].map((h) => h.trim().toLowerCase()).filter((h) => h !== '');
  if (from !== null && own.includes(from)) return null;
  return `forbidden: a request from the web page at ${origin.slice(0, 200)} is refused: without auth_secret svcd answers browsers only from its own dashboard (Origin must be this svcd)`;
}

/** The lowercase host name of a Host header (IPv6 without brackets), or null when there is none. */
function hostName(host: string): string | null {
  if (host === '') return null; // HTTP/1.0 clients; a browser always sends Host
  try {
    return new URL(`http://${host}`).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  } catch {
    return '';
  }
}

function loopbackName(name: string, configuredHost: string): boolean {
  if (isIP(name) !== 0) return true; // a rebinding page has a name, never an address
  return name === 'localhost' || name.endsWith('.localhost') || name === configuredHost.replace(/^\[|\]$/g, '').toLowerCase();
}

/** `host[:port]` of an Origin as a Host header would carry it, or null (`null`, malformed). */
function originHost(origin: string): string | null {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.host.toLowerCase() : null;
  } catch {
    return null;
  }
}
