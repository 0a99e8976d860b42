import { execFileSync, spawnSync } from 'node:child_process';
import { createServer as createHttp, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttps } from 'node:https';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';

/**
 * What a path serves: bytes (optionally dribbled slowly, or announced as `announce` bytes in
 * Content-Length and then cut off), a status, or a redirect.
 */
export type Route = { body: Buffer | string; chunkDelayMs?: number; announce?: number } | { status: number } | { redirect: string };

/**
 * A local artifact server on 127.0.0.1 (port 0) for OTA tests: routes can change while it runs.
 * `hits` counts requests per path. Closing it destroys open connections (slow transfers too).
 */
export async function artifactServer(opts: { tls?: { key: string; cert: string } } = {}) {
  const routes = new Map<string, Route>();
  const hits = new Map<string, number>();
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const route = routes.get(path);
    if (!route) return void res.writeHead(404).end('not found');
    if ('status' in route) return void res.writeHead(route.status).end();
    if ('redirect' in route) return void res.writeHead(302, { location: route.redirect }).end();
    const body = Buffer.from(route.body);
    res.writeHead(200, { 'content-length': route.announce ?? body.length, 'content-type': 'application/octet-stream' });
    if (route.announce !== undefined) return void res.write(body, () => res.destroy());
    if (!route.chunkDelayMs) return void res.end(body);
    let at = 0;
    const timer = setInterval(() => {
      if (res.destroyed) return clearInterval(timer);
      res.write(body.subarray(at, at + 16));
      at += 16;
      if (at >= body.length) {
        clearInterval(timer);
        res.end();
      }
    }, route.chunkDelayMs);
    res.on('close', () => clearInterval(timer));
  };
  const server: Server = opts.tls ? createHttps({ key: opts.tls.key, cert: opts.tls.cert }, handler) : createHttp(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const base = `${opts.tls ? 'https' : 'http'}://127.0.0.1:${port}`;
  return {
    base,
    url: (path: string) => `${base}${path}`,
    routes,
    hits,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** Whether the openssl command is there (scripts/install-system-deps.sh installs it). */
export function opensslAvailable(): boolean {
  return spawnSync('openssl', ['version'], { stdio: 'ignore' }).status === 0;
}

/** A self-signed certificate for 127.0.0.1 and localhost, made with openssl in `dir`. */
export function selfSignedCert(dir: string): { key: string; cert: string; certFile: string } {
  const keyFile = join(dir, 'key.pem');
  const certFile = join(dir, 'cert.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyFile, '-out', certFile, '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'], { stdio: 'ignore' });
  return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8'), certFile };
}
