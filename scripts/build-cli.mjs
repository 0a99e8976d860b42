// Bundles the CLI (tsc's dist/tui/cli/main.js and what it imports) with esbuild into
// dist/bin/svc.js, the `svc` command (part of `npm run build`, after tsc and build-validators).
//
// Why: `svc list` is a short-lived process, and Node 20 spends most of its start-up resolving,
// reading and compiling ~100 ES modules one file at a time. One file (plus lazily loaded chunks
// for the commands that need more: stack tools, logs -f, license, import/export) starts in
// about two thirds of the time (bench/FINDINGS.md). tsc's per-module output stays in dist/ and
// runs the same (`node dist/tui/cli/main.js`); tests of single modules import those files.
//
// Of the packages, only those every command loads are bundled (BUNDLED). Modules that locate
// files of the build use conf/dist-path.ts, which is right from either layout; the generated
// validators (required by path from state/schema/validate.ts, beside itself) are copied beside
// the bundle.
import { build } from 'esbuild';
import { copyFileSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const OUT = join('dist', 'bin');
const BUNDLED = ['commander', 'smol-toml', 'dotenv'];
const { dependencies } = JSON.parse(readFileSync('package.json', 'utf8'));
// Chunks sit beside svc.js, not in a subfolder: bundled code finds build files relative to its
// own file (conf/dist-path.ts), which must be one folder below dist/ wherever it lands.
const CHUNK_PREFIX = 'svc-';

for (const f of readdirSync(OUT)) if (f.startsWith(CHUNK_PREFIX) || /^svc\.js(\.map|\.LEGAL\.txt)?$/.test(f)) rmSync(join(OUT, f));

await build({
  entryPoints: { svc: join('dist', 'tui', 'cli', 'main.js') },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: ['node20'],
  outdir: OUT,
  chunkNames: `${CHUNK_PREFIX}[name]-[hash]`,
  // Packages stay in node_modules except the few every command loads at start-up; the others
  // are imported by one command each and load as they always did (some, such as jsonc-parser's
  // UMD build or ink reading files beside its modules, would not survive bundling).
  external: Object.keys(dependencies).filter((name) => !BUNDLED.includes(name)).flatMap((name) => [name, `${name}/*`]),
  // Bundled CommonJS packages (commander) call require() for Node's own modules.
  banner: { js: "import { createRequire as svcCreateRequire } from 'node:module'; const require = svcCreateRequire(import.meta.url);" },
  sourcemap: true, // chained to tsc's maps: stack traces name the .ts sources
  legalComments: 'linked',
  logLevel: 'warning',
});

copyFileSync(join('dist', 'state', 'schema', 'program-validators.cjs'), join(OUT, 'program-validators.cjs'));
const head = readFileSync(join(OUT, 'svc.js'), 'utf8').slice(0, 200);
if (!head.startsWith('#!/usr/bin/env')) throw new Error('build-cli: dist/bin/svc.js lost its #! line');
console.log('build-cli: dist/bin/svc.js');
