/**
 * The authentication extension point shared by HTTP and the WebSocket: an Authenticator turns a
 * Bearer credential into a Principal. Core auth (api/auth/core.ts) implements it with the open
 * mode or the admin secret; the security plugin (plugins/security/) replaces it with Access
 * Tokens. The route permission table (api/route-table.ts) then decides what the role may do.
 */
export type Role = 'viewer' | 'operator' | 'admin';
export const ROLES: readonly Role[] = ['viewer', 'operator', 'admin'];

/** Who made a request. */
export type Principal =
  /** No auth configured (loopback or socket without auth_secret): everything is allowed. */
  | { kind: 'open'; role: 'admin' }
  /** The `[server].auth_secret`. */
  | { kind: 'secret'; role: 'admin' }
  /** An Access Token of the security plugin. */
  | { kind: 'token'; role: Role; id: string; name: string };

export type AuthOutcome = { ok: true; principal: Principal } | { ok: false; reason: string };

export interface Authenticator {
  /** `open`: no credential needed; `secret`: core auth; `tokens`: the security plugin. */
  readonly mode: 'open' | 'secret' | 'tokens';
  /** Decides a Bearer credential (already parsed). Never called in `open` mode. */
  authenticate(bearer: string): AuthOutcome;
  /**
   * Calls `listener` after every change of the credentials (a token created, renewed or revoked,
   * the admin secret disabled or re-enabled); returns the unsubscribe. Absent when credentials
   * never change while svcd runs (core auth).
   */
  onChange?(listener: () => void): () => void;
}

export const OPEN_PRINCIPAL: Principal = { kind: 'open', role: 'admin' };

/** How a principal is named in the audit log and messages. */
export function describePrincipal(p: Principal): string {
  if (p.kind === 'token') return `token ${p.id} (${p.name}, ${p.role})`;
  return p.kind === 'secret' ? 'the admin secret' : 'open mode';
}
