// The child process of probe.ts: loads each plugin library named on the command line and runs
// the ABI checks, writing one JSON line before and one after each, so that if a library crashes
// the process the parent knows which file did it.
import { writeSync } from 'node:fs';
import { basename } from 'node:path';
import { LIBRARY_SUFFIX } from './abi.js';
import { pluginSpec } from './catalog.js';
import { openPluginLibrary } from './open-library.js';

for (const file of process.argv.slice(2)) {
  writeSync(1, `${JSON.stringify({ begin: file })}\n`);
  const spec = pluginSpec(basename(file, LIBRARY_SUFFIX));
  try {
    if (!spec) throw new Error(`${file}: not a known svc plugin`);
    const lib = openPluginLibrary(file, spec);
    writeSync(1, `${JSON.stringify({ ok: file, name: lib.name, version: lib.version })}\n`);
  } catch (err) {
    writeSync(1, `${JSON.stringify({ error: file, message: (err as Error).message })}\n`);
  }
}
