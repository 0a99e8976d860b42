import { readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Router from '@koa/router';
import type { Context } from 'koa';
import { SvcError } from '../../state/errors.js';

/** Where `npm run build` puts the dashboard (scripts/build-web.mjs): dist/web beside dist/api. */
export const WEB_DIR = fileURLToPath(new URL('../../web/', import.meta.url));

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

/** A built asset name: `app-<hash>.js` and the like; never a path, never a dot file. */
const ASSET = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

// Scripts only from this origin; inline style attributes are allowed (React sets widths and
// row offsets); the log WebSocket is same-origin ('self' covers ws: and wss: in CSP 3).
const CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * The web dashboard (spec: the single-page app at `/` and `/assets`, exempt from auth): the
 * page with `Cache-Control: no-cache` (revalidated with its ETag, so a rebuilt daemon serves the
 * new page at once) and content-hashed assets as `immutable` for a year. The app routes with
 * the URL fragment, so no other path needs the page.
 */
export function webRouter(dir = WEB_DIR): Router {
  const router = new Router();
  router.get('/', async (ctx) => {
    await sendFile(ctx, join(dir, 'index.html'), 'text/html; charset=utf-8', 'no-cache');
    ctx.set('Content-Security-Policy', CSP);
    ctx.set('X-Frame-Options', 'DENY');
  });
  router.get('/assets/:name', async (ctx) => {
    const name = String(ctx.params.name);
    const type = TYPES[extname(name)];
    if (!ASSET.test(name) || !type) throw new SvcError('SVC_NOT_FOUND', `no dashboard asset '${name}'`);
    const path = join(dir, 'assets', name);
    // The build leaves a gzip copy of the script and style; most of the bytes of a first visit.
    const gz = ctx.acceptsEncodings('gzip', 'identity') === 'gzip' && (await isFile(`${path}.gz`));
    ctx.vary('Accept-Encoding');
    await sendFile(ctx, gz ? `${path}.gz` : path, type, 'public, max-age=31536000, immutable');
    if (gz) ctx.set('Content-Encoding', 'gzip');
  });
  return router;
}

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null))?.isFile() ?? false;
}

async function sendFile(ctx: Context, path: string, type: string, cacheControl: string): Promise<void> {
  const info = await stat(path).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return null;
    throw err;
  });
  if (!info?.isFile()) {
    const what = path.endsWith('index.html') ? 'the dashboard is not built (run npm run build)' : `no dashboard asset '${path.split('/').pop()}'`;
    throw new SvcError('SVC_NOT_FOUND', what);
  }
  ctx.set('Cache-Control', cacheControl);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.type = type;
  ctx.lastModified = info.mtime;
  ctx.etag = `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
  ctx.status = 200;
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  ctx.body = await readFile(path);
}
