import { findNodeAtLocation, parse as parseTolerant, parseTree, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { invalid } from '../errors.js';
import { duplicateKeyAt } from './duplicate-keys.js';
import { MAX_NESTING, tooDeepAt } from './nesting.js';

/** A position in the original text, 1-based, for `JSON line N column M` messages. */
export interface TextPosition {
  line: number;
  column: number;
}

/** Finds where the value at a JSON path stands in the source text (null when unknown). */
export type Locator = (path: (string | number)[]) => TextPosition | null;

export function positionOf(text: string, offset: number): TextPosition {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

export function formatJsonPosition(pos: TextPosition): string {
  return `JSON line ${pos.line} column ${pos.column}`;
}

/**
 * Parses a JSON document. A syntax error, or a key given twice in one object, becomes a 400
 * whose message carries `JSON line N column M`; the returned locator finds the key of any path
 * (for unknown fields).
 */
export function parseJsonDocument(document: string): { value: unknown; locate: Locator } {
  // A UTF-8 byte order mark (editors on Windows write one) is not part of the document (RFC 8259 section 8.1).
  const text = document.charCodeAt(0) === 0xfeff ? document.slice(1) : document;
  const deep = tooDeepAt(text, 'json');
  if (deep >= 0) throw invalid(`${formatJsonPosition(positionOf(text, deep))}: nesting deeper than ${MAX_NESTING} levels`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const errors: ParseError[] = [];
    parseTolerant(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
    const first = errors[0];
    const offset = first ? first.offset : text.length;
    const what = first ? describeParseError(printParseErrorCode(first.error)) : 'invalid JSON';
    throw invalid(`${formatJsonPosition(positionOf(text, offset))}: ${what}`);
  }
  const duplicate = duplicateKeyAt(text);
  if (duplicate) throw invalid(`${formatJsonPosition(positionOf(text, duplicate.offset))}: key ${JSON.stringify(duplicate.key)} appears twice in the same object (only one can count)`);
  return { value, locate: makeLocator(text) };
}

function describeParseError(code: string): string {
  // 'PropertyNameExpected' -> 'property name expected'
  return code.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

function makeLocator(text: string): Locator {
  let tree: ReturnType<typeof parseTree> | undefined;
  return (path) => {
    tree ??= parseTree(text);
    if (!tree) return null;
    const node = findNodeAtLocation(tree, path);
    if (!node) return null;
    // For an object member, point at its key (the property node's start).
    const at = node.parent?.type === 'property' ? node.parent.offset : node.offset;
    return positionOf(text, at);
  };
}
