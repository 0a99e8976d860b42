import { invalid } from '../state/errors.js';
import type { ParsedDocument } from './document.js';

/** The top level of a stack document: `prune`, `services` and (files only) `include`. */
export interface StackShape {
  prune: boolean;
  services: unknown[];
  include: string[];
}

const KEYS = new Set(['prune', 'services', 'include']);

/**
 * Checks the top level of a stack. `file` (a label) prefixes messages of file-based stacks;
 * unknown keys are located like unknown program fields.
 */
export function readStackShape(doc: ParsedDocument, file: string | null): StackShape {
  const fail = (path: (string | number)[], message: string): never => {
    const pos = doc.locate(path);
    const where = pos ? doc.formatPosition(pos) : file;
    throw invalid(where ? `${where}: ${message}` : message);
  };
  const value = doc.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return fail([], 'a stack must be a table/object with `services` (and optionally `prune`, `include`)');
  }
  const top = value as Record<string, unknown>;
  for (const key of Object.keys(top)) {
    if (!KEYS.has(key)) {
      const pos = doc.locate([key]);
      const hint = '(a stack has prune, services, include)';
      // A file's problems start with path:line:col, as svc check prints every other (editors and
      // CI read that prefix); a request body's say `at JSON line N column M` (spec).
      if (file) throw invalid(`${pos ? doc.formatPosition(pos) : file}: ${key}: unknown field ${hint}`);
      throw invalid(`${key}: unknown field${pos ? ` at ${doc.formatPosition(pos)}` : ''} ${hint}`);
    }
  }
  const prune = top.prune ?? false;
  if (typeof prune !== 'boolean') fail(['prune'], 'prune: must be a boolean');
  const services = top.services ?? [];
  if (!Array.isArray(services)) return fail(['services'], 'services: must be a list of program configurations');
  const include = top.include ?? [];
  if (!Array.isArray(include) || include.some((p) => typeof p !== 'string' || p.length === 0)) {
    return fail(['include'], 'include: must be a list of file paths');
  }
  return { prune: prune as boolean, services: services as unknown[], include: include as string[] };
}
