import type { Server } from 'node:http';
import type { Socket } from 'node:net';

const CHECK_TIMER = 'http.server.connectionsCheckingInterval';

/**
 * Node's HTTP server looks for requests past their headers/request timeouts on an interval that
 * runs from listen to close, connections or not (with svc's 1 s interval: 60 wake-ups a minute of
 * an idle daemon). This runs the same check (Node's own function, taken from its timer) only
 * while at least one connection is open. On a Node whose server does not keep that timer under
 * the expected symbol, Node's interval is left as it is.
 */
export function checkConnectionsWhileOpen(server: Server, everyMs: number): void {
  server.once('listening', () => {
    const sym = Object.getOwnPropertySymbols(server).find((s) => s.description === CHECK_TIMER);
    const timer = sym ? ((server as unknown as Record<symbol, unknown>)[sym] as NodeJS.Timeout | undefined) : undefined;
    const check = (timer as { _onTimeout?: unknown } | undefined)?._onTimeout;
    if (!timer || typeof check !== 'function') return;
    clearInterval(timer);
    let open = 0;
    let interval: NodeJS.Timeout | null = null;
    const stop = () => {
      if (interval) clearInterval(interval);
      interval = null;
    };
    server.on('connection', (socket: Socket) => {
      open++;
      interval ??= setInterval(check as () => void, everyMs).unref(); // bound to the server by Node
      socket.once('close', () => {
        if (--open === 0) stop();
      });
    });
    server.once('close', stop);
  });
}
