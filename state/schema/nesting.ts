/**
 * Nesting limits for request bodies and stack files (docs/api.md, "Limits"). Parsers recurse per
 * level: a 1 MiB body of `[[[[...` reaches depth 500 000 and overflows the stack, so the text is
 * scanned before it is parsed, and the parsed value is checked again (YAML block nesting and TOML
 * dotted keys nest without brackets).
 */
export const MAX_NESTING = 64;

export type NestingFormat = 'json' | 'toml' | 'yaml';

/**
 * The offset of the first `[` or `{` that opens level MAX_NESTING + 1, outside strings and
 * comments, or -1. Linear in the text, no allocation: safe to run on anything the body cap lets in.
 */
export function tooDeepAt(text: string, format: NestingFormat): number {
  return format === 'json' ? scanJson(text) : format === 'toml' ? scanToml(text) : scanYaml(text);
}

/** True when the value nests deeper than MAX_NESTING (objects and arrays; a cycle counts as too deep). */
export function valueTooDeep(value: unknown): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (depth + 1 > MAX_NESTING) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}

const OPEN = (c: number) => c === 0x5b || c === 0x7b; // [ {
const CLOSE = (c: number) => c === 0x5d || c === 0x7d; // ] }

function scanJson(text: string): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) i = endOfQuoted(text, i, true);
    else if (OPEN(c) && ++depth > MAX_NESTING) return i;
    else if (CLOSE(c) && depth > 0) depth--;
  }
  return -1;
}

function scanToml(text: string): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x23) i = endOfLine(text, i); // # comment
    else if (c === 0x22 || c === 0x27) {
      const triple = text.startsWith(c === 0x22 ? '"""' : "'''", i);
      i = triple ? endOfTriple(text, i, c === 0x22) : endOfQuoted(text, i, c === 0x22);
    } else if (OPEN(c) && ++depth > MAX_NESTING) return i;
    else if (CLOSE(c) && depth > 0) depth--;
  }
  return -1;
}

/**
 * YAML nests with brackets only in flow collections; elsewhere `[` may sit inside a plain scalar
 * (`echo a[1]`). A bracket or quote counts only where a value can start: at the start of a
 * line, after `:`, `-`, `?`, or inside a flow collection after `,`, `[`, `{`. Block scalars (`|`,
 * `>`) are skipped. Anything missed here is caught by valueTooDeep after the parse.
 */
function scanYaml(text: string): number {
  let depth = 0;
  let lineStart = 0;
  let prev = -1; // last non-space character code on this line, -1 at its start
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) {
      lineStart = i + 1;
      prev = -1;
      continue;
    }
    if (c === 0x20 || c === 0x09 || c === 0x0d) continue;
    // In a flow collection an item starts after `[`, `{` or `,`; in block context only after `:`, `-`, `?`.
    const valueStart = prev === -1 || prev === 0x3a || prev === 0x2d || prev === 0x3f || (depth > 0 && (prev === 0x2c || OPEN(prev)));
    if (c === 0x23 && (i === lineStart || isSpace(text.charCodeAt(i - 1)))) {
      i = endOfLine(text, i) - 1;
      continue;
    }
    if ((c === 0x22 || c === 0x27) && valueStart) {
      i = endOfQuoted(text, i, c === 0x22);
      prev = c;
      continue;
    }
    if ((c === 0x7c || c === 0x3e) && valueStart && depth === 0) {
      lineStart = endOfBlockScalar(text, i, indentOf(text, lineStart));
      prev = -1;
      i = lineStart - 1;
      continue;
    }
    if (OPEN(c) && (valueStart || depth > 0) && ++depth > MAX_NESTING) return i;
    if (CLOSE(c) && depth > 0) depth--;
    prev = c;
  }
  return -1;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

function endOfLine(text: string, i: number): number {
  const n = text.indexOf('\n', i);
  return n < 0 ? text.length : n;
}

/** Index of the closing quote (or the end); `\` escapes in double quotes, `''` in YAML single quotes is two quotes in a row. */
function endOfQuoted(text: string, start: number, escapes: boolean): number {
  const quote = text.charCodeAt(start);
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (escapes && c === 0x5c) i++;
    else if (c === quote) return i;
  }
  return text.length;
}

function endOfTriple(text: string, start: number, escapes: boolean): number {
  const delim = escapes ? '"""' : "'''";
  for (let i = start + 3; i < text.length; i++) {
    if (escapes && text.charCodeAt(i) === 0x5c) i++;
    else if (text.startsWith(delim, i)) return i + 2;
  }
  return text.length;
}

function indentOf(text: string, lineStart: number): number {
  let i = lineStart;
  while (text.charCodeAt(i) === 0x20) i++;
  return i - lineStart;
}

/** The start of the first line after a block scalar: lines indented deeper than its parent, or blank. */
function endOfBlockScalar(text: string, indicator: number, parentIndent: number): number {
  let i = endOfLine(text, indicator) + 1;
  while (i < text.length) {
    const end = endOfLine(text, i);
    const line = text.slice(i, end);
    if (line.trim() !== '' && indentOf(text, i) <= parentIndent) return i;
    i = end + 1;
  }
  return text.length;
}
