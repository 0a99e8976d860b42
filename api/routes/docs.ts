import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import Router from '@koa/router';

/** swagger-ui-dist files the page loads, served from node_modules (no CDN: svcd may be offline). */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>svc API</title>
  <link rel="stylesheet" href="/api/docs/swagger-ui.css">
  <link rel="icon" type="image/png" href="/api/docs/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/api/docs/swagger-ui-bundle.js"></script>
  <script src="/api/docs/swagger-ui-standalone-preset.js"></script>
  <script src="/api/docs/init.js"></script>
</body>
</html>
`;

// A separate file rather than an inline script, so a strict Content-Security-Policy works.
const INIT = `window.ui = SwaggerUIBundle({
  url: '/api/v1/openapi.json',
  dom_id: '#swagger-ui',
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout',
  persistAuthorization: true
});
`;

/**
 * `/api/v1/openapi.json` and the interactive docs at `/api/docs`. The app mounts this router only
 * when `[server] enable_docs = true`; otherwise both paths fall through to the JSON 404.
 */
export function docsRouter(version: string): Router {
  const assetDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  // Built on the first request: the OpenAPI code and document are not part of every daemon's memory.
  let document: Promise<unknown> | null = null;
  const router = new Router();
  router.get('/api/v1/openapi.json', async (ctx) => {
    document ??= import('../openapi/document.js').then(({ openApiDocument }) => openApiDocument(version));
    ctx.body = await document;
  });
  router.get('/api/docs', (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = PAGE;
  });
  router.get('/api/docs/init.js', (ctx) => {
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.body = INIT;
  });
  router.get('/api/docs/:file', (ctx) => {
    const file = String(ctx.params.file);
    const type = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined;
    if (!type) return; // falls through to the JSON 404
    ctx.type = type;
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = createReadStream(join(assetDir, file));
  });
  return router;
}
