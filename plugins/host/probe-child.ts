// The child process of probe.ts: loads each plugin library named on the command line and runs
// the ABI checks, writing one JSON line before and one after each, so that if a library crashes
// the process the parent knows which file did it. The lines go to file descriptor 3, a pipe of
// their own: what a library prints on standard output while it loads is not mistaken for them.
import { writeSync } from 'node:fs';
import { basename } from 'node:path';
import { LIBRARY_SUFFIX } from './abi.js';
import { pluginSpec } from './catalog.js';
import { openPluginLibrary } from './open-library.js';

const REPORT_FD = 3;
const report = (line: object) => writeSync(REPORT_FD, `${JSON.stringify(line)}\n`);

for (const file of process.argv.slice(2)) {
  report({ begin: file });
  const spec = pluginSpec(basename(file, LIBRARY_SUFFIX));
  try {
    if (!spec) throw new Error(`${file}: not a known svc plugin`);
    const lib = openPluginLibrary(file, spec);
    report({ ok: file, name: lib.name, version: lib.version });
  } catch (err) {
    report({ error: file, message: (err as Error).message });
  }
}
