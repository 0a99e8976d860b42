import { createHash, timingSafeEqual } from 'node:crypto';
import type { Authenticator } from '../../state/auth/principal.js';

/**
 * Core auth (spec, Authentication: Modes): open without `auth_secret`, else the Bearer must
 * equal the secret. Digests are compared, so neither the content nor the length of the secret
 * shows in the time taken.
 */
export function coreAuthenticator(secret: string): Authenticator {
  if (!secret) return { mode: 'open', authenticate: () => ({ ok: false, reason: 'open mode has no credentials' }) };
  const expected = digest(secret);
  return {
    mode: 'secret',
    authenticate: (bearer) =>
      timingSafeEqual(digest(bearer), expected) ? { ok: true, principal: { kind: 'secret', role: 'admin' } } : { ok: false, reason: 'authentication failed: the Bearer credential is not the admin secret' },
  };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
