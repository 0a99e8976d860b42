import type { Context, Next } from 'koa';
import type { AuditActor } from '../../plugins/security/audit/chain.js';
import type { AuditRecorder } from '../../plugins/security/audit/recorder.js';
import type { ErrorBody } from '../wire.js';
import type { Principal } from '../../state/auth/principal.js';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Adds facts about a state change to its audit record (never a secret). */
export function auditDetail(ctx: Context, detail: Record<string, unknown>): void {
  (ctx.state as { audit?: Record<string, unknown> }).audit = detail;
}

function actorOf(p: Principal | undefined): AuditActor {
  if (!p) return { kind: 'anonymous' };
  if (p.kind === 'token') return { kind: 'token', id: p.id, name: p.name, role: p.role };
  return { kind: p.kind, role: p.role };
}

/**
 * Records every state-changing request (any method but GET, HEAD, OPTIONS), refused ones
 * included: who (the principal the auth middleware found, or anonymous), what (method, path,
 * query without credentials, route detail), when, and the status answered. Sits outside the
 * error middleware so the status is final; the response waits for the record to be on disk.
 * While the log cannot be written, state changes are refused with 503 (recorder.ts).
 */
export function auditMiddleware(recorder: AuditRecorder, now: () => number) {
  return async (ctx: Context, next: Next) => {
    if (READS.has(ctx.method)) return next();
    const refused = await recorder.refusal();
    if (refused !== null) {
      ctx.status = 503;
      ctx.body = { status: 'error', message: refused } satisfies ErrorBody;
      return;
    }
    try {
      await next();
    } finally {
      const state = ctx.state as { principal?: Principal; audit?: Record<string, unknown> };
      const params = new URLSearchParams(ctx.querystring);
      params.delete('token');
      const query = params.toString();
      await recorder.record({ ts: now(), actor: actorOf(state.principal), method: ctx.method, path: ctx.path, ...(query ? { query } : {}), status: ctx.status, ...(state.audit ? { detail: state.audit } : {}) });
    }
  };
}
