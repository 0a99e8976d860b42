import type { Context } from 'koa';
import { checkCredential, parseBearer } from './bearer.js';

/** Sec-WebSocket-Protocol values that carry a credential (browsers cannot set headers). */
export const PROTOCOL_BEARER = 'bearer.';
export const PROTOCOL_BEARER_B64 = 'base64url.bearer.';
/** The protocol a browser offers beside its credential; svcd selects it (never the credential). */
export const PROTOCOL_NAME = 'svc.v1';

/**
 * The Bearer credential of a request, or null. HTTP takes only the Authorization header. The
 * WebSocket also takes `?token=` and, for browsers, a Sec-WebSocket-Protocol value
 * `bearer.<credential>` or `base64url.bearer.<base64url of the credential>` (for secrets with
 * characters a protocol token cannot hold), offered together with `svc.v1`.
 */
export function credentialOf(ctx: Context, websocket: boolean): string | null {
  const header = ctx.get('authorization');
  if (header) return parseBearer(header);
  if (!websocket) return null;
  const query = ctx.query.token;
  if (typeof query === 'string' && query !== '') return checkCredential(query);
  for (const offered of ctx.get('sec-websocket-protocol').split(',')) {
    const value = offered.trim();
    if (value.startsWith(PROTOCOL_BEARER_B64)) return checkCredential(Buffer.from(value.slice(PROTOCOL_BEARER_B64.length), 'base64url').toString('utf8'));
    if (value.startsWith(PROTOCOL_BEARER)) return checkCredential(value.slice(PROTOCOL_BEARER.length));
  }
  return null;
}

/** ws's handleProtocols: select `svc.v1` when offered, never a protocol that carries a credential. */
export function selectProtocol(offered: Set<string>): string | false {
  return offered.has(PROTOCOL_NAME) ? PROTOCOL_NAME : false;
}
