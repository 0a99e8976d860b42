import type { Locator } from '../../../state/schema/json-body.js';

/** The 1-based line of a path in a source file (its nearest located ancestor, else line 1). */
export type LineOf = (path: (string | number)[]) => number;

/** A LineOf from a JSON/YAML locator: the key's line, or the closest ancestor that has one. */
export function lineOfFromLocator(locate: Locator): LineOf {
  return (path) => {
    for (let n = path.length; n >= 0; n--) {
      const pos = locate(path.slice(0, n));
      if (pos) return pos.line;
    }
    return 1;
  };
}

/**
 * Finds keys in JavaScript source without a parser (the file was evaluated, not parsed): each
 * app is located by its `name: '<name>'` (else its `script:`), and a key of app i by its first
 * `key:` between that line and the next app's, else the last one between the previous app's and
 * it. Good enough to point a reader at the right line.
 */
export function jsLineOf(text: string, apps: { name?: unknown; script?: unknown }[]): LineOf {
  const lines = text.split('\n');
  const lineIndex = (re: RegExp): number[] => lines.flatMap((l, i) => (re.test(l) ? [i + 1] : []));
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const anchors = apps.map((app) => {
    for (const key of ['name', 'script'] as const) {
      const v = app?.[key];
      if (typeof v !== 'string') continue;
      const hits = lineIndex(new RegExp(`["']?${key}["']?\\s*:\\s*["'\`]${esc(v)}["'\`]`));
      if (hits.length > 0) return hits[0];
    }
    return null;
  });
  const known = anchors.filter((a): a is number => a !== null).sort((a, b) => a - b);
  return (path) => {
    const appIndex = path.find((p): p is number => typeof p === 'number');
    const base = appIndex === undefined ? null : (anchors[appIndex] ?? null);
    const key = appIndex === undefined ? path.find((p) => typeof p === 'string') : path[path.indexOf(appIndex) + 1];
    if (typeof key !== 'string') return base ?? 1;
    const hits = lineIndex(new RegExp(`(^|[\\s{,])["']?${esc(key)}["']?\\s*:`));
    if (base === null) return hits[0] ?? 1;
    const next = known.find((a) => a > base) ?? Infinity;
    const prev = [...known].reverse().find((a) => a < base) ?? 0;
    return hits.find((h) => h >= base && h < next) ?? [...hits].reverse().find((h) => h > prev && h < base) ?? base;
  };
}

/** The 1-based line that sets `name` in a `.env` (`NAME=`, `export NAME=`, `NAME:`), or 1 when none does. */
export function dotenvLineOf(text: string, name: string): number {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const sets = new RegExp(`^\\s*(export\\s+)?${escaped}\\s*[=:]`);
  return text.split(/\r?\n/).findIndex((l) => sets.test(l)) + 1 || 1;
}
