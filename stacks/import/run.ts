import { SvcError, invalid } from '../../state/errors.js';
import type { ProgramConfig } from '../../state/program.js';
import { loadStackText } from '../load.js';
import { checkStackDependenciesOffline, validateServices } from '../validate-stack.js';
import { importPm2 } from './pm2/index.js';
import { importProcessCompose } from './process-compose/index.js';
import { importProcfile } from './procfile/index.js';
import { sortReport } from './report.js';
import { importSupervisord } from './supervisord/index.js';
import type { ImportFormat, ImportOptions, ImportPorts, ImportResult } from './types.js';

/**
 * Reads a file of another process manager and maps it to svc programs, each with
 * `source = "import:<format>"`, then checks the result with the same validation as `svc check`
 * (a mapping that svc would refuse is an error naming the program, never a broken stack).
 * `label` names the file in messages and in the report (the path as the user typed it).
 */
export function importFile(format: ImportFormat, path: string, label: string, ports: ImportPorts, opts: ImportOptions = {}): ImportResult {
  const result = byFormat(format, path, label, ports, opts);
  const services: ProgramConfig[] = result.services.map((s) => ({ ...s, source: `import:${format}` }));
  checkImported(services, label);
  return { format, services, report: sortReport(result.report) };
}

function byFormat(format: ImportFormat, path: string, label: string, ports: ImportPorts, opts: ImportOptions): ImportResult {
  switch (format) {
    case 'pm2':
      return importPm2(path, label, ports, opts);
    case 'supervisord':
      return importSupervisord(path, label, ports);
    case 'process-compose':
      return importProcessCompose(path, label, ports);
    case 'procfile':
      return importProcfile(path, label, ports, opts);
  }
}

function checkImported(services: ProgramConfig[], label: string): void {
  try {
    const stack = loadStackText(JSON.stringify({ services }), 'json');
    const desired = validateServices(stack, { logDir: '/', logDirUnknown: true, source: 'import' });
    checkStackDependenciesOffline(desired);
  } catch (err) {
    if (!(err instanceof SvcError)) throw err;
    const lines = err.message.split('\n').map((m) => `${label}: as imported: ${m}`);
    throw invalid(`${lines.join('\n')}\n(svc refuses these values; fix them in ${label} and import again)`);
  }
}
