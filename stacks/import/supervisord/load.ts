import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { invalid } from '../../../state/errors.js';
import { expandGlob } from '../common/glob.js';
import type { ImportPorts } from '../types.js';
import { envExpansions, expand } from './expand.js';
import { parseIni, type IniSection } from './ini.js';

/** A supervisord configuration with its `[include] files` read, sections in file order. */
export interface LoadedSupervisord {
  sections: IniSection[];
  /** Absolute folder of the file each section came from (for `%(here)s`), by file label. */
  dirs: Map<string, string>;
  /** `[include] files` patterns that match no file (supervisord warns and goes on), with the `files` key's place. */
  unmatched: { file: string; line: number; pattern: string; dir: string }[];
}

/**
 * Reads the main file, then the files its `[include] files` patterns name (space-separated
 * globs, relative to the including file's folder, expanded and sorted like supervisord does;
 * `%(here)s` and `%(ENV_X)s` in them are expanded first, as supervisord expands them).
 * Included files may include others; a file is read once. An included file is labelled with a
 * path the user can open, like the main file's label: under the main file's folder, that folder as
 * the label names it joined with the rest (`deploy/conf.d/web.conf`); elsewhere, its absolute path.
 */
export function loadSupervisord(path: string, label: string, ports: ImportPorts): LoadedSupervisord {
  const top = resolve(path);
  const base = dirname(top);
  const sections: IniSection[] = [];
  const dirs = new Map<string, string>();
  const unmatched: LoadedSupervisord['unmatched'] = [];
  const seen = new Set<string>();
  const fromEnv = envExpansions(ports.env);
  const visit = (abs: string, name: string): void => {
    if (seen.has(abs)) return;
    seen.add(abs);
    let text: string;
    try {
      text = ports.readText(abs);
    } catch (err) {
      throw invalid(`${name}: cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
    const parsed = parseIni(text, name);
    dirs.set(name, dirname(abs));
    for (const section of parsed) {
      const files = section.name === 'include' ? section.options.get('files') : undefined;
      const earlier = sections.find((s) => s.name === section.name);
      // A section repeated in another file merges into the first, later keys winning (ConfigParser).
      if (earlier) for (const [key, option] of section.options) earlier.options.set(key, option);
      else sections.push(section);
      if (!files) continue;
      let value: string;
      try {
        value = expand(files.value, { ...fromEnv, here: dirname(abs) }, 'files').value;
      } catch (err) {
        throw invalid(`${files.file}:${files.line}: [include] ${(err as Error).message}`);
      }
      for (const pattern of value.split(/\s+/).filter(Boolean)) {
        const matches = expandGlob(pattern, dirname(abs), ports.listDir, ports.exists);
        if (matches.length === 0) unmatched.push({ file: files.file, line: files.line, pattern, dir: dirname(abs) });
        for (const match of matches) visit(match, includeLabel(match, base, label));
      }
    }
  };
  visit(top, label);
  return { sections, dirs, unmatched };
}

/** The label of an included file: next to the main file's label when under its folder, else absolute. */
function includeLabel(match: string, base: string, label: string): string {
  const rel = relative(base, match);
  return rel.startsWith('..') || isAbsolute(rel) ? match : join(dirname(label), rel);
}
