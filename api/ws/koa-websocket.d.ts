// Types for koa-websocket 7 (its @types package merges `websocket` into every Koa Context,
// which would make every HTTP handler's context claim a socket it does not have).
declare module 'koa-websocket' {
  import type Koa from 'koa';
  import type { ServerOptions, WebSocket } from 'ws';

  /** A Koa context of the WebSocket chain: the socket is open, there is no HTTP response. */
  export type WebSocketContext = Koa.Context & { websocket: WebSocket };
  export type WebSocketMiddleware = (ctx: WebSocketContext, next: Koa.Next) => unknown;

  export interface WebSocketServer {
    use(middleware: WebSocketMiddleware): this;
    /** Creates a ws server with these options (svcd passes its own http.Server). */
    listen(options: ServerOptions): void;
  }

  export type App = Koa & { ws: WebSocketServer };

  export default function websockify(app: Koa, wsOptions?: ServerOptions): App;
}
