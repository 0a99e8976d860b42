import { parse as parseToml, TomlError } from 'smol-toml';
import { createRequire } from 'node:module';
import type { Node as YamlNode } from 'yaml';
import { invalid } from '../state/errors.js';
import { formatJsonPosition, parseJsonDocument, positionOf, type Locator } from '../state/schema/json-body.js';
import { MAX_NESTING, tooDeepAt, valueTooDeep } from '../state/schema/nesting.js';
import { tomlLocator } from './toml-locator.js';

/** yaml (CommonJS) is loaded on the first YAML document, not in every daemon at start-up (svcd's memory). */
const requireCjs = createRequire(import.meta.url);
const yamlLib = (): typeof import('yaml') => requireCjs('yaml') as typeof import('yaml');

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
  if (format === 'json') return { ...parseJsonDocument(text), format, formatPosition: formatJsonPosition };
  // Nesting is bounded before the parser recurses (the JSON parser checks its own).
  const deep = tooDeepAt(text, format);
  if (deep >= 0) {
    const pos = positionOf(text, deep);
    throw invalid(`${path}:${pos.line}:${pos.column}: nesting deeper than ${MAX_NESTING} levels`);
  }
  const doc =
    format === 'toml' ? { value: parseTomlText(text, path), format, locate: tomlLocator(text), formatPosition: (p: { line: number; column: number }) => `${path}:${p.line}:${p.column}` } : parseYamlText(text, path);
  if (valueTooDeep(doc.value)) throw invalid(`${path}: nesting deeper than ${MAX_NESTING} levels`);
  return doc;
}

function parseTomlText(text: string, path: string): unknown {
  try {
    return parseToml(text);
  } catch (err) {
    if (err instanceof TomlError) throw invalid(`${path}:${err.line}:${err.column}: ${(err.message.split('\n')[0] ?? '').replace(/^Invalid TOML document: /, '')}`);
    throw err;
  }
}

function parseYamlText(text: string, path: string): ParsedDocument {
  const { isMap, isPair, isScalar, LineCounter, parseDocument } = yamlLib();
  const counter = new LineCounter();
  // Merge keys (`<<: *defaults`) as YAML 1.1 and the tools whose files are imported (process-compose, PM2) read them.
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: false, merge: true });
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
  return { value: yamlValue(doc, path), format: 'yaml', locate, formatPosition: (p) => `${path}:${p.line}:${p.column}` };
}

/** Aliases expand in toJS: at most MAX_YAML_ALIASES expansions (an "alias bomb" is a 400, not a 500). */
export const MAX_YAML_ALIASES = 100;

function yamlValue(doc: import('yaml').Document.Parsed, path: string): unknown {
  try {
    return doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (err) {
    if (err instanceof ReferenceError && /alias/i.test(err.message)) throw invalid(`${path}: too many alias expansions (more than ${MAX_YAML_ALIASES})`);
    if (err instanceof RangeError) throw invalid(`${path}: nesting deeper than ${MAX_NESTING} levels`);
    throw invalid(`${path}: ${(err as Error).message.split('\n')[0]}`);
  }
}
