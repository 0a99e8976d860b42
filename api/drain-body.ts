import type { IncomingMessage } from 'node:http';
import type { Middleware } from 'koa';

/**
 * Reads and discards a request body the route did not read (GET /metrics with a body, a 401 or
 * 415 answered before the body), before the answer is sent. Node closes a `Connection: close`
 * socket right after the answer; bytes of the body still arriving then make the kernel reset the
 * connection, and the client can lose the answer itself ("aborted"). Bodies declared larger than
 * `server.max_body_bytes` are not read: their 413 closes the connection, as documented
 * (docs/api.md). A body that trickles is bounded by `request_timeout_secs` (http-limits.ts).
 */
export function drainUnreadBody(maxBytes: number): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } finally {
      await drain(ctx.req, maxBytes);
    }
  };
}

function drain(req: IncomingMessage, maxBytes: number): Promise<void> {
  if (req.complete || req.readableEnded || req.destroyed) return Promise.resolve();
  const chunked = req.headers['transfer-encoding'] !== undefined;
  const declared = Number(req.headers['content-length'] ?? 0);
  if (!chunked && (!(declared > 0) || declared > maxBytes)) return Promise.resolve();
  return new Promise((resolve) => {
    let size = 0;
    const done = () => {
      req.off('data', onData).off('end', done).off('close', done).off('error', done);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) done();
    };
    req.on('data', onData).once('end', done).once('close', done).once('error', done);
  });
}
