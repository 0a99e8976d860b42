import { Stream } from 'node:stream';
import type { Context, Next } from 'koa';
import { OPEN_PRINCIPAL, type Authenticator, type Principal } from '../../state/auth/principal.js';
import { SvcError } from '../../state/errors.js';
import { permissionFor } from '../route-table.js';
import { CLOSE } from '../ws/log-hub.js';
import { credentialOf } from './credential.js';
import { allows, MINIMUM_ROLE, type Permission } from '../../state/auth/roles.js';

export const MISSING_CREDENTIAL = 'authentication required: send Authorization: Bearer <secret>';

/** The principal the auth middleware put on a request (open mode when none was needed). */
export function principalOf(ctx: Context): Principal {
  return (ctx.state as { principal?: Principal }).principal ?? OPEN_PRINCIPAL;
}

/** Throws 403 unless the request's principal holds `permission` (for checks a route makes later). */
export function requirePermission(ctx: Context, permission: Permission): void {
  const p = principalOf(ctx);
  if (!allows(p.role, permission)) throw forbidden(p.role, permission);
}

function forbidden(role: string, permission: Permission): SvcError {
  const needs = permission === 'public' ? 'nothing' : MINIMUM_ROLE[permission];
  return new SvcError('SVC_FORBIDDEN', `forbidden: role ${role} does not have permission ${permission} (needs ${needs})`);
}

/**
 * The one auth middleware, for Koa routes and the WebSocket alike (koa-websocket runs the same
 * function): the route table gives the permission, the Authenticator (core auth, or the
 * security plugin that replaces it) the principal, the role matrix the verdict. 401 for a
 * missing or wrong credential, 403 for a role without the permission.
 */
export function authMiddleware(authenticator: Authenticator) {
  const streams = new Set<{ bearer: string; permission: Permission; end: (reason: string) => void }>();
  // A renewed or revoked token (or the admin secret disabled) ends the streams it opened at once,
  // like its next request would be refused: the log WebSocket (4401) and streamed responses (SSE).
  authenticator.onChange?.(() => {
    for (const s of streams) {
      const outcome = authenticator.authenticate(s.bearer);
      if (outcome.ok && allows(outcome.principal.role, s.permission)) continue;
      streams.delete(s);
      s.end(outcome.ok ? 'the role of the credential changed' : outcome.reason);
    }
  });
  return async (ctx: Context, next: Next) => {
    const websocket = (ctx as { websocket?: { close(code: number, reason: string): void; once(event: 'close', f: () => void): unknown } }).websocket;
    const permission = permissionFor(websocket ? 'WS' : ctx.method, ctx.path);
    if (permission === 'public' || authenticator.mode === 'open') return next();
    const bearer = credentialOf(ctx, websocket !== undefined);
    if (bearer === null) throw new SvcError('SVC_UNAUTHORIZED', MISSING_CREDENTIAL);
    const outcome = authenticator.authenticate(bearer);
    if (!outcome.ok) throw new SvcError('SVC_UNAUTHORIZED', outcome.reason);
    (ctx.state as { principal?: Principal }).principal = outcome.principal;
    if (!allows(outcome.principal.role, permission)) throw forbidden(outcome.principal.role, permission);
    if (!authenticator.onChange) return next();
    if (websocket) {
      const stream = { bearer, permission, end: (reason: string) => websocket.close(CLOSE.unauthorized, reason.slice(0, 120)) };
      streams.add(stream);
      websocket.once('close', () => streams.delete(stream));
      return next();
    }
    await next();
    if (ctx.body instanceof Stream && !ctx.res.writableEnded) {
      const stream = { bearer, permission, end: () => ctx.res.destroy() };
      streams.add(stream);
      ctx.res.once('close', () => streams.delete(stream));
    }
  };
}
