import type { Locator } from '../state/schema/json-body.js';

/**
 * Finds `services[i]` and keys in TOML text (smol-toml has no position API). Good enough for
 * messages: `[[name]]` headers locate `name[i]`; a `key =` line (or a dotted `key.sub =` line)
 * inside that table locates a field, and a sub-table of the element (`[services.health_check]`,
 * as `svc export` and `svc import` write `env`, `health_check`, `hooks`…) locates the fields in
 * it. The text is indexed once, so each lookup is a few binary searches: a stack of 6 000
 * services is located in milliseconds, not minutes.
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
  /** `[name]` header lines, by (dotted) name, ascending. */
  sections: Map<string, number[]>;
  /** Every line that starts a table (`[` first), ascending, with the table's name. */
  tables: number[];
  tableNames: Map<number, string>;
  /** `key =` lines, by key, ascending; a dotted key `a.b =` is listed under `a` and `a.b`. */
  keys: Map<string, number[]>;
  /** Column (1-based) of the first non-blank character, per line. */
  columns: number[];
  lines: number;
}

/** `a . "b"` → `a.b` (quotes and blanks around the dots are not part of the name). */
function dottedName(raw: string): string {
  return raw
    .split('.')
    .map((part) => part.trim().replace(/^["']|["']$/g, ''))
    .join('.');
}

function indexToml(text: string): TomlIndex {
  const headers = new Map<string, number[]>();
  const sections = new Map<string, number[]>();
  const keys = new Map<string, number[]>();
  const tables: number[] = [];
  const tableNames = new Map<number, string>();
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
    const array = /^\s*\[\[\s*([^\]]+?)\s*\]\]/.exec(line);
    const table = array ? null : /^\s*\[\s*([^\]]+?)\s*\]/.exec(line);
    if (array?.[1]) add(headers, dottedName(array[1]), n);
    if (table?.[1]) add(sections, dottedName(table[1]), n);
    if (/^\s*\[/.test(line)) {
      tables.push(n);
      tableNames.set(n, dottedName(array?.[1] ?? table?.[1] ?? ''));
    }
    const key = /^\s*((?:"[^"]*"|'[^']*'|[A-Za-z0-9_-]+)(?:\s*\.\s*(?:"[^"]*"|'[^']*'|[A-Za-z0-9_-]+))*)\s*=/.exec(line);
    if (key?.[1]) {
      const parts = dottedName(key[1]).split('.');
      for (let i = 1; i <= parts.length; i++) add(keys, parts.slice(0, i).join('.'), n);
    }
  });
  return { headers, sections, tables, tableNames, keys, columns, lines: lines.length };
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

/** The first line of `list` in [from, to), or undefined. */
function firstIn(list: number[] | undefined, from: number, to: number): number | undefined {
  const line = list?.[lowerBound(list, from)];
  return line !== undefined && line < to ? line : undefined;
}

function locate(index: TomlIndex, path: (string | number)[]) {
  const at = (line: number) => ({ line: line + 1, column: index.columns[line] ?? 1 });
  const nextTable = (after: number) => index.tables[lowerBound(index.tables, after + 1)] ?? index.lines;
  // The table being searched: its name, its own key lines [from, to), and the end of its sub-tables.
  let table = '';
  let from = 0;
  let to = index.tables[0] ?? index.lines;
  let extent = index.lines;
  // Keys already matched inside the table (a dotted key `health_check.url =` or an inline table).
  let dotted = '';
  let found: number | null = null;
  const result = () => (found === null ? null : at(found));
  for (let i = 0; i < path.length; i++) {
    const seg = path[i];
    const next = path[i + 1];
    if (typeof seg !== 'string') return result();
    const name = [table, dotted, seg].filter(Boolean).join('.');
    if (typeof next === 'number') {
      const list = index.headers.get(name) ?? [];
      const start = list[lowerBound(list, from) + next];
      if (start === undefined || start >= extent) return result();
      found = start;
      table = name;
      dotted = '';
      from = start + 1;
      to = nextTable(start);
      // The element's sub-tables (`[name.x]`) run up to the next table that is not one of them.
      let end = to;
      while (end < index.lines && index.tableNames.get(end)?.startsWith(`${name}.`)) end = nextTable(end);
      extent = end;
      i++;
      continue;
    }
    const key = firstIn(index.keys.get(dotted ? `${dotted}.${seg}` : seg), from, to);
    if (key !== undefined) {
      found = key;
      dotted = dotted ? `${dotted}.${seg}` : seg;
      continue;
    }
    const section = firstIn(index.sections.get(name), from, extent);
    if (section === undefined) return result();
    found = section;
    table = name;
    dotted = '';
    from = section + 1;
    to = nextTable(section);
  }
  return result();
}
