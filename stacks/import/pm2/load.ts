import { extname } from 'node:path';
import { invalid, SvcError } from '../../../state/errors.js';
import { parseJsonDocument } from '../../../state/schema/json-body.js';
import { parseDocumentText } from '../../document.js';
import { jsLineOf, lineOfFromLocator, type LineOf } from '../common/locate.js';
import { evaluateEcosystem, type DroppedValue } from './evaluate.js';

/** A PM2 file read into plain data, with a way to find the line of `[appIndex, key]` paths. */
export interface LoadedPm2 {
  kind: 'ecosystem' | 'dump';
  /** The apps (ecosystem `apps`, or the dump's process entries), unvalidated. */
  apps: unknown[];
  /** Top-level keys other than `apps` (ecosystem files only). */
  extra: Record<string, unknown>;
  /** Line of a path in the file; build app paths with `appPath`. */
  lineOf: LineOf;
  /** The path of app `i` in the file (`['apps', i]`, `[i]`, or `[]` for a file that is one app). */
  appPath: (i: number) => (string | number)[];
  /** Values of a JS file that JSON cannot carry (functions, undefined), for the report. */
  dropped: DroppedValue[];
}

/**
 * Reads `ecosystem.config.js`/`.cjs` (evaluated, see evaluate.ts), `.json`, `.yaml`/`.yml`, or a
 * PM2 dump (`dump.pm2`, JSON: a list of process entries with `pm_exec_path`). Syntax errors carry
 * the file's own position: `file:line:col: ...`.
 */
export function loadPm2(text: string, path: string, label: string, env: Record<string, string | undefined>): LoadedPm2 {
  const ext = extname(path).toLowerCase();
  if (ext === '.mjs') throw invalid(`${label}: ES module ecosystem files are not supported; use module.exports in a .js or .cjs file`);
  if (ext === '.js' || ext === '.cjs') {
    const { value, dropped } = evaluateEcosystem(text, path, label, env);
    const shaped = shape(value, label);
    return { ...shaped, lineOf: jsLineOf(text, shaped.apps as { name?: unknown; script?: unknown }[]), dropped };
  }
  if (ext === '.yaml' || ext === '.yml') {
    const doc = parseDocumentText(text, 'yaml', label);
    return { ...shape(doc.value, label), lineOf: lineOfFromLocator(doc.locate), dropped: [] };
  }
  let doc: ReturnType<typeof parseJsonDocument>;
  try {
    doc = parseJsonDocument(text);
  } catch (err) {
    const m = err instanceof SvcError ? /^JSON line (\d+) column (\d+): (.*)$/s.exec(err.message) : null;
    if (m) throw invalid(`${label}:${m[1]}:${m[2]}: ${m[3]}`);
    throw err;
  }
  return { ...shape(doc.value, label), lineOf: lineOfFromLocator(doc.locate), dropped: [] };
}

function shape(value: unknown, label: string): Pick<LoadedPm2, 'kind' | 'apps' | 'extra' | 'appPath'> {
  if (Array.isArray(value)) {
    const dump = value.length > 0 && value.every((v) => typeof v === 'object' && v !== null && 'pm_exec_path' in v);
    return { kind: dump ? 'dump' : 'ecosystem', apps: value, extra: {}, appPath: (i) => [i] };
  }
  if (typeof value !== 'object' || value === null) {
    throw invalid(`${label}: expected an ecosystem ({ apps: [...] }), a list of apps, or a PM2 dump`);
  }
  const top = value as Record<string, unknown>;
  if (!('apps' in top)) {
    if (typeof top.script === 'string') return { kind: 'ecosystem', apps: [top], extra: {}, appPath: () => [] };
    throw invalid(`${label}: no \`apps\`: expected an ecosystem ({ apps: [...] }), a list of apps, or a PM2 dump`);
  }
  const { apps, ...extra } = top;
  return { kind: 'ecosystem', apps: Array.isArray(apps) ? apps : [apps], extra, appPath: (i) => (Array.isArray(apps) ? ['apps', i] : ['apps']) };
}
