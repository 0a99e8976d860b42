import { fileURLToPath } from 'node:url';

/**
 * A path inside the build output (`dist/`). This module sits one folder below dist/, and so does
 * the bundled CLI (dist/bin/svc.js, scripts/build-cli.mjs) into which it is inlined: the same
 * `import.meta.url` arithmetic holds in both layouts, where `new URL('../../../x', import.meta.url)`
 * in a deeper module would point elsewhere once bundled.
 */
export function distPath(relative: string): string {
  return fileURLToPath(new URL(`../${relative}`, import.meta.url));
}
