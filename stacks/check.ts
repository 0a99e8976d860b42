import { SvcError } from '../state/errors.js';
import { loadStackFile, type LoadedStack, type ReadText } from './load.js';
import { checkStackDependenciesOffline, validateServices } from './validate-stack.js';

export interface CheckResult {
  file: string;
  /** Error messages, one problem each, `path:line:col: ...` where a position is known. */
  errors: string[];
  /** Things that cannot be checked offline (depends_on naming programs outside the stack). */
  warnings: string[];
  services: number;
}

/**
 * Offline check of a stack file (no daemon): the same parsing, includes, schema validation,
 * duplicate and depends_on rules as an apply. The daemon's log_dir is unknown, so custom log
 * paths are not checked against it.
 */
export function checkStackFile(file: string, read: ReadText): CheckResult {
  return loadCheckedStack(file, read).result;
}

/** The check, and the loaded stack when it passed (what `svc apply` sends, loaded once). */
export function loadCheckedStack(file: string, read: ReadText): { result: CheckResult; stack: LoadedStack | null } {
  try {
    const stack = loadStackFile(file, read);
    const desired = validateServices(stack, { logDir: '/', logDirUnknown: true, source: `stack:${file}` });
    const warnings = checkStackDependenciesOffline(desired);
    return { result: { file, errors: [], warnings, services: desired.length }, stack };
  } catch (err) {
    if (!(err instanceof SvcError)) throw err;
    const errors = err.message.split('\n').map((m) => (m.startsWith(file) || /^[^\s:]+:\d+:\d+: /.test(m) ? m : `${file}: ${m}`));
    return { result: { file, errors, warnings: [], services: 0 }, stack: null };
  }
}
