import { parse as parseToml, TomlError } from 'smol-toml';
import { isMap, isPair, isScalar, LineCounter, parseDocument, type Node as YamlNode } from 'yaml';
import { invalid } from '../state/errors.js';
import { formatJsonPosition, parseJsonDocument, type Locator } from '../state/schema/json-body.js';

export type DocumentFormat = 'json' | 'toml' | 'yaml';

/** A parsed document and a way to find where a path stands in its text (for error messages). */
export interface ParsedDocument {
  value: unknown;
  format: DocumentFormat;
  locate: Locator;
  /** How a position is written in messages for this format. */
  formatPosition: (pos: { line: number; column: number }) => string;
}

export function formatFromName(name: string): DocumentFormat | null {
  if (/\.json$/i.test(name)) return 'json';
  if (/\.toml$/i.test(name)) return 'toml';
  if (/\.ya?ml$/i.test(name)) return 'yaml';
  return null;
}

/**
 * Parses JSON, TOML or YAML. Syntax errors are 400s: `JSON line N column M: ...` for JSON,
 * `path:line:col: ...` for TOML and YAML (`path` is the file name, or the given label).
 */
export function parseDocumentText(text: string, format: DocumentFormat, path = format === 'toml' ? 'stack.toml' : 'stack.yaml'): ParsedDocument {
  switch (format) {
    case 'json':
      return { ...parseJsonDocument(text), format, formatPosition: formatJsonPosition };
    case 'toml':
      return { value: parseTomlText(text, path), format, locate: tomlLocator(text), formatPosition: (p) => `${path}:${p.line}:${p.column}` };
    case 'yaml':
      return parseYamlText(text, path);
  }
}

function parseTomlText(text: string, path: string): unknown {
  try {
    return parseToml(text);
  } catch (err) {
    if (err instanceof TomlError) throw invalid(`${path}:${err.line}:${err.column}: ${(err.message.split('\n')[0] ?? '').replace(/^Invalid TOML document: /, '')}`);
    throw err;
  }
}

/**
 * TOML has no position API. Good enough for messages: `[[services]]` headers locate
 * `services[i]`, and a `key =` line inside that table (or anywhere, at the top) locates a field.
 */
function tomlLocator(text: string): Locator {
  const lines = text.split('\n');
  const escape = (k: string) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const at = (index: number) => ({ line: index + 1, column: (lines[index]?.search(/\S/) ?? 0) + 1 });
  return (path) => {
    let from = 0;
    let to = lines.length;
    let found: number | null = null;
    for (let i = 0; i < path.length; i++) {
      const seg = path[i];
      const next = path[i + 1];
      if (typeof seg === 'string' && typeof next === 'number') {
        const header = new RegExp(`^\\s*\\[\\[\\s*${escape(seg)}\\s*\\]\\]`);
        const headers = lines.map((l, n) => (n >= from && n < to && header.test(l) ? n : -1)).filter((n) => n >= 0);
        const start = headers[next];
        if (start === undefined) return found === null ? null : at(found);
        found = start;
        from = start + 1;
        const end = lines.findIndex((l, n) => n >= from && /^\s*\[/.test(l));
        to = end < 0 ? lines.length : end;
        i++;
      } else if (typeof seg === 'string') {
        const key = new RegExp(`^\\s*["']?${escape(seg)}["']?\\s*=`);
        const index = lines.findIndex((l, n) => n >= from && n < to && key.test(l));
        if (index < 0) return found === null ? null : at(found);
        found = index;
      } else return found === null ? null : at(found);
    }
    return found === null ? null : at(found);
  };
}

function parseYamlText(text: string, path: string): ParsedDocument {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: false });
  const error = doc.errors[0];
  if (error) {
    const pos = counter.linePos(error.pos[0]);
    throw invalid(`${path}:${pos.line}:${pos.col}: ${error.message.split('\n')[0]}`);
  }
  const locate: Locator = (segments) => {
    let node: unknown = doc.contents;
    let keyNode: YamlNode | null = null;
    for (const seg of segments) {
      if (isMap(node)) {
        const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && p.key.value === seg);
        if (!pair) return null;
        keyNode = pair.key as YamlNode;
        node = pair.value;
      } else if (node && typeof node === 'object' && 'items' in node && typeof seg === 'number') {
        node = (node as { items: unknown[] }).items[seg];
        keyNode = node as YamlNode;
      } else return null;
    }
    const range = keyNode?.range;
    if (!range) return null;
    const pos = counter.linePos(range[0]);
    return { line: pos.line, column: pos.col };
  };
  return { value: doc.toJS(), format: 'yaml', locate, formatPosition: (p) => `${path}:${p.line}:${p.column}` };
}
