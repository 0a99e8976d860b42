import { invalid } from '../../../state/errors.js';

export interface IniOption {
  /** Lower-cased, as Python's ConfigParser does. */
  key: string;
  /** The value with continuation lines joined by `\n` and inline comments removed. */
  value: string;
  line: number;
  /** Label of the file it came from (sections repeated in several files merge). */
  file: string;
}

export interface IniSection {
  name: string;
  line: number;
  /** Label of the file it came from. */
  file: string;
  options: Map<string, IniOption>;
}

const SECTION = /^\[(.+)\]/;
const OPTION = /^(.*?)\s*([=:])\s*(.*)$/;
const INLINE_PREFIXES = [';', '#'];

/**
 * Parses an INI file the way supervisord's parser (Python's RawConfigParser with `;` and `#`
 * inline comments, non-strict) does: full-line and inline comments (a prefix after whitespace),
 * `key = value` or `key: value`, indented continuation lines, keys lower-cased, a repeated
 * section or key overriding the earlier one. Errors carry the line: `file:line: ...`.
 */
export function parseIni(text: string, file: string): IniSection[] {
  const sections = new Map<string, IniSection>();
  const lines = text.split(/\r?\n/);
  let current: IniSection | null = null;
  let option: { key: string; parts: string[]; line: number } | null = null;
  let indentLevel = 0;
  const flush = () => {
    if (current && option) current.options.set(option.key, { key: option.key, value: option.parts.join('\n').trim(), line: option.line, file });
    option = null;
  };
  lines.forEach((raw, index) => {
    const lineNo = index + 1;
    const commentAt = inlineCommentStart(raw);
    const value = raw.slice(0, commentAt).trim();
    if (!value) {
      if (option && commentAt === raw.length) option.parts.push('');
      return;
    }
    const indent = raw.search(/\S/);
    if (option && indent > indentLevel) {
      option.parts.push(value); // a continuation line
      return;
    }
    indentLevel = indent;
    const header = SECTION.exec(value);
    if (header) {
      flush();
      const name = header[1];
      current = sections.get(name) ?? { name, line: lineNo, file, options: new Map() };
      sections.set(name, current);
      return;
    }
    if (!current) throw invalid(`${file}:${lineNo}: file contains no section headers: '${raw.trim()}'`);
    const m = OPTION.exec(value);
    if (!m || m[1] === '') throw invalid(`${file}:${lineNo}: parsing error: '${raw.trim()}' (expected key = value, or a [section])`);
    flush();
    option = { key: m[1].toLowerCase(), parts: [m[3]], line: lineNo };
  });
  flush();
  return [...sections.values()];
}

/** Where a comment starts: a full-line `#`/`;`, or an inline one preceded by whitespace. */
function inlineCommentStart(line: string): number {
  const trimmed = line.trimStart();
  if (trimmed.startsWith('#') || trimmed.startsWith(';')) return 0;
  let start = line.length;
  for (const prefix of INLINE_PREFIXES) {
    for (let i = line.indexOf(prefix); i >= 0; i = line.indexOf(prefix, i + 1)) {
      if (i > 0 && /\s/.test(line[i - 1])) {
        start = Math.min(start, i);
        break;
      }
    }
  }
  return start;
}
