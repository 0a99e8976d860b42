import type { Locator } from '../state/schema/json-body.js';

/**
 * Finds `services[i]` and keys in TOML text (smol-toml has no position API). Good enough for
 * messages: `[[name]]` headers locate `name[i]`, and a `key =` line inside that table (or at the
 * top) locates a field. The text is indexed once, so each lookup is a few binary searches:
 * a stack of 6 000 services is located in milliseconds, not minutes.
 */
export function tomlLocator(text: string): Locator {
  let index: TomlIndex | null = null;
  return (path) => {
    index ??= indexToml(text);
    return locate(index, path);
  };
}

interface TomlIndex {
  /** `[[name]]` header lines, by name, ascending. */
  headers: Map<string, number[]>;
  /** Every line that starts a table (`[` first), ascending. */
  tables: number[];
  /** `key =` lines, by key, ascending. */
  keys: Map<string, number[]>;
  /** Column (1-based) of the first non-blank character, per line. */
  columns: number[];
  lines: number;
}

function indexToml(text: string): TomlIndex {
  const headers = new Map<string, number[]>();
  const keys = new Map<string, number[]>();
  const tables: number[] = [];
  const columns: number[] = [];
  const lines = text.split('\n');
  const add = (map: Map<string, number[]>, key: string, line: number) => {
    const list = map.get(key);
    if (list) list.push(line);
    else map.set(key, [line]);
  };
  lines.forEach((line, n) => {
    const first = line.search(/\S/);
    columns.push((first < 0 ? 0 : first) + 1);
    const header = /^\s*\[\[\s*([^\]]+?)\s*\]\]/.exec(line);
    if (header?.[1]) add(headers, header[1], n);
    if (/^\s*\[/.test(line)) tables.push(n);
    const key = /^\s*["']?([^"'=\s]+)["']?\s*=/.exec(line);
    if (key?.[1]) add(keys, key[1], n);
  });
  return { headers, tables, keys, columns, lines: lines.length };
}

/** Index of the first element >= value in an ascending list. */
function lowerBound(list: number[], value: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((list[mid] ?? 0) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function locate(index: TomlIndex, path: (string | number)[]) {
  const at = (line: number) => ({ line: line + 1, column: index.columns[line] ?? 1 });
  let from = 0;
  let to = index.lines;
  let found: number | null = null;
  const result = () => (found === null ? null : at(found));
  for (let i = 0; i < path.length; i++) {
    const seg = path[i];
    const next = path[i + 1];
    if (typeof seg === 'string' && typeof next === 'number') {
      const list = index.headers.get(seg) ?? [];
      const start = list[lowerBound(list, from) + next];
      if (start === undefined || start >= to) return result();
      found = start;
      from = start + 1;
      to = index.tables[lowerBound(index.tables, from)] ?? index.lines;
      i++;
    } else if (typeof seg === 'string') {
      const list = index.keys.get(seg) ?? [];
      const line = list[lowerBound(list, from)];
      if (line === undefined || line >= to) return result();
      found = line;
    } else return result();
  }
  return result();
}
