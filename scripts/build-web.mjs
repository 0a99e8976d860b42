// Bundles the web dashboard (web/src, React) with esbuild into dist/web (part of `npm run build`):
//   dist/web/index.html             the page; served with Cache-Control: no-cache
//   dist/web/assets/<name>-<hash>.* content-hashed script and style (and .gz); served as immutable
// Type checking is `tsc -p web/tsconfig.json` (esbuild only strips types). Nothing is fetched
// at run time: React and the app are one local script.
import { build } from 'esbuild';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { basename, join } from 'node:path';

const OUT = join('dist', 'web');
const ASSETS = join(OUT, 'assets');

// Only the bundle's own files are replaced: tsc writes the dashboard's logic modules under
// dist/web/src for the unit tests, and those must survive this step.
rmSync(ASSETS, { recursive: true, force: true });
rmSync(join(OUT, 'index.html'), { force: true });
mkdirSync(ASSETS, { recursive: true });

const result = await build({
  entryPoints: { app: join('web', 'src', 'main.tsx') },
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'browser',
  target: ['es2022'],
  jsx: 'automatic',
  outdir: ASSETS,
  entryNames: '[name]-[hash]',
  assetNames: '[name]-[hash]',
  metafile: true,
  legalComments: 'linked',
  define: { 'process.env.NODE_ENV': '"production"' },
  logLevel: 'warning',
});

const outputs = Object.keys(result.metafile.outputs).map((p) => basename(p));
const script = outputs.find((f) => /^app-.*\.js$/.test(f));
const style = outputs.find((f) => /^app-.*\.css$/.test(f));
if (!script || !style) throw new Error(`build-web: expected app-<hash>.js and .css, got ${outputs.join(', ')}`);

const html = readFileSync(join('web', 'index.html'), 'utf8')
  .replace('%STYLE%', `/assets/${style}`)
  .replace('%SCRIPT%', `/assets/${script}`);
writeFileSync(join(OUT, 'index.html'), html);
// Precompressed copies: svcd sends them to browsers that accept gzip (no compression per request).
for (const name of [script, style]) writeFileSync(join(ASSETS, `${name}.gz`), gzipSync(readFileSync(join(ASSETS, name)), { level: 9 }));
console.log(`build-web: dist/web/index.html, assets/${script}, assets/${style}`);
