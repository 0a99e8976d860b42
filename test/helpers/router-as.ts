import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import type Router from '@koa/router';
import type { Principal } from '../../state/auth/principal.js';

/**
 * GET `path` from one router served on a loopback port, as `principal` (what the auth middleware
 * would have put on the request); the parsed JSON answer. The server is closed before it returns.
 */
export async function getAs(router: Router, principal: Principal, path: string): Promise<unknown> {
  const app = new Koa();
  app.use(async (ctx, next) => {
    ctx.state.principal = principal;
    await next();
  });
  app.use(router.routes());
  const handle = app.callback();
  const server = createServer((req, res) => void handle(req, res)).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  try {
    return await (await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`)).json();
  } finally {
    server.close();
  }
}
