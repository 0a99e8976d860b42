import type { Context, Next } from 'koa';
import { SvcError, type SvcErrorCode } from '../state/errors.js';
import type { ErrorBody } from './wire.js';

const STATUS: Record<SvcErrorCode, number> = {
  SVC_INVALID: 400,
  SVC_CONFLICT: 409,
  SVC_NOT_FOUND: 404,
  SVC_METHOD_NOT_ALLOWED: 405,
  SVC_TOO_LARGE: 413,
  SVC_UNSUPPORTED_MEDIA: 415,
  SVC_UNAUTHORIZED: 401,
  SVC_FORBIDDEN: 403,
  SVC_UNAVAILABLE: 503,
  SVC_NO_SPACE: 507,
  SVC_INTERNAL: 500,
};

export interface ErrorLogger {
  error(msg: string, fields?: Record<string, unknown>): void;
}

/**
 * The one place where errors become HTTP: every failure, including 404 and 500, answers
 * `{status: "error", message}`. Unexpected errors are logged and never leak a stack trace.
 */
export function errorMiddleware(log: ErrorLogger) {
  return async (ctx: Context, next: Next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new SvcError('SVC_NOT_FOUND', `no route for ${ctx.method} ${ctx.path}`);
      }
      if (ctx.status === 405 && ctx.body === undefined) {
        ctx.body = { status: 'error', message: `method ${ctx.method} not allowed on ${ctx.path}` } satisfies ErrorBody;
      }
    } catch (err) {
      if (err instanceof SvcError) {
        ctx.status = STATUS[err.code];
        ctx.body = { status: 'error', message: err.message } satisfies ErrorBody;
        if (err.code === 'SVC_UNAUTHORIZED') ctx.set('WWW-Authenticate', 'Bearer');
        return;
      }
      log.error('request failed', { method: ctx.method, path: ctx.path, error: (err as Error).stack ?? String(err) });
      ctx.status = 500;
      ctx.body = { status: 'error', message: 'internal error; see the daemon log' } satisfies ErrorBody;
    }
  };
}
