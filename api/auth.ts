import { timingSafeEqual } from 'node:crypto';
import type { Context, Next } from 'koa';
import { SvcError } from '../state/errors.js';

/** Paths that never need a credential (spec, Authentication: Credential use 4). */
const EXEMPT = [/^\/$/, /^\/assets\//, /^\/health$/, /^\/api\/docs(\/|$)/, /^\/api\/v1\/openapi\.json$/, /^\/api\/v1\/auth\/status$/];

/**
 * Core auth: with a non-empty `auth_secret` every other route needs `Authorization: Bearer
 * <secret>` (401 otherwise). Without a secret the API is open (loopback or socket only).
 */
export function coreAuth(secret: string) {
  const expected = Buffer.from(secret);
  return async (ctx: Context, next: Next) => {
    if (!secret || EXEMPT.some((re) => re.test(ctx.path))) return next();
    if (!bearerMatches(ctx.get('authorization'), expected)) {
      throw new SvcError('SVC_UNAUTHORIZED', 'authentication required: send Authorization: Bearer <secret>');
    }
    return next();
  };
}

export function bearerMatches(header: string, expected: Buffer): boolean {
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  if (!match) return false;
  const given = Buffer.from(match[1] ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
