import { dirname, relative, resolve } from 'node:path';
import { invalid, SvcError } from '../state/errors.js';
import { formatFromName, parseDocumentText, type DocumentFormat, type ParsedDocument } from './document.js';
import { readStackShape } from './shape.js';

/** One element of `services`, not yet validated, with where it came from (for messages). */
export interface RawService {
  body: unknown;
  /** Index inside the `services` list of its own file. */
  index: number;
  doc: ParsedDocument;
  /** Label of the file it came from (relative to the top-level stack's folder); null for an HTTP body. */
  file: string | null;
  /** `include:<file>` for services of an included file; null for the top-level stack. */
  includedFrom: string | null;
  /** Messages about this service start with this (`path:line:col` of the element), or nothing. */
  where: string | null;
}

/** A stack with its includes resolved, in document order (includes first, in `include` order). */
export interface LoadedStack {
  prune: boolean;
  services: RawService[];
  /** Labels of every included file, transitively (for `include:<file>` sources and prune scope). */
  includes: string[];
}

/** Reads a file as text; throws ENOENT-style errors. Injected so the CLI and daemon share this code. */
export type ReadText = (path: string) => string;

/** Parses a stack body received over HTTP; `include` is refused (the daemon cannot see the caller's files). */
export function loadStackText(text: string, format: DocumentFormat, label?: string): LoadedStack {
  return stackFromDocument(parseDocumentText(text, format, label));
}

/** A stack from an HTTP body already parsed (off the event loop, by DocumentParser). */
export function stackFromDocument(doc: ParsedDocument): LoadedStack {
  const shape = readStackShape(doc, null);
  if (shape.include.length > 0) {
    throw invalid('include: not supported in a request body; `svc apply` resolves includes locally, or put the stack in the watched directory');
  }
  return { prune: shape.prune, services: shape.services.map((body, index) => ({ body, index, doc, file: null, includedFrom: null, where: null })), includes: [] };
}

/**
 * Loads a stack file and, depth first, the files it includes (paths relative to the including
 * file). Syntax errors and positions are written `path:line:col:` for every format. A cycle is
 * refused with the chain of files. `topLabel` names the file in messages (default: `path`).
 */
export function loadStackFile(path: string, read: ReadText, topLabel = path, preparsed?: Preparsed): LoadedStack {
  const top = resolve(path);
  const base = dirname(top);
  const label = (abs: string) => (abs === top ? topLabel : relative(base, abs));
  const services: RawService[] = [];
  const includes: string[] = [];
  let prune = false;
  // `at`: where the including file names this one (`web.toml:1:12`), which starts the messages
  // about the include itself (missing, unreadable, a cycle); null for the top-level file.
  const visit = (abs: string, chain: string[], at: string | null): void => {
    const prefix = at ? `${at}: include: ` : 'include: ';
    if (chain.includes(abs)) {
      throw invalid(`${prefix}cycle detected: ${[...chain, abs].map(label).join(' -> ')}`);
    }
    const name = label(abs);
    const doc = readDocument(abs, name, read, preparsed?.get(abs), at ? prefix : '');
    const shape = readStackShape(doc, name);
    if (abs === top) prune = shape.prune;
    else includes.push(name);
    shape.include.forEach((inc, i) => {
      // TOML arrays are located by their key only.
      const pos = doc.locate(['include', i]) ?? doc.locate(['include']);
      visit(resolve(dirname(abs), inc), [...chain, abs], pos ? doc.formatPosition(pos) : name);
    });
    shape.services.forEach((body, index) => {
      // A TOML inline list (`services = [{ … }]`) is located by its key only.
      const pos = doc.locate(['services', index]) ?? doc.locate(['services']);
      services.push({ body, index, doc, file: name, includedFrom: abs === top ? null : name, where: pos ? doc.formatPosition(pos) : name });
    });
  };
  visit(top, [], null);
  return { prune, services, includes: [...new Set(includes)] };
}

/**
 * Files parsed ahead (asynchronously, off the event loop: stacks/preparse.ts), by absolute path:
 * the document, or the error its parse raised (thrown when the loader reaches that file).
 */
export type Preparsed = Map<string, ParsedDocument | Error>;

/** `prefix` starts the messages about a file that cannot be had at all (`web.toml:1:12: include: `), or is empty. */
function readDocument(abs: string, name: string, read: ReadText, ahead: ParsedDocument | Error | undefined, prefix = ''): ParsedDocument {
  const format = formatFromName(abs);
  if (!format) throw invalid(`${prefix}${name}: unknown format (use .json, .toml, .yaml or .yml)`);
  let text = '';
  try {
    if (ahead === undefined) text = read(abs);
  } catch (err) {
    throw invalid(`${prefix}${name}: cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  try {
    if (ahead instanceof Error) throw ahead;
    if (ahead === undefined && text.trim() === '') throw emptyFile(name);
    const doc = ahead ?? parseDocumentText(text, format, name);
    return format === 'json' ? { ...doc, formatPosition: (p) => `${name}:${p.line}:${p.column}` } : doc;
  } catch (err) {
    // JSON syntax errors come as `JSON line N column M: ...`; files use path:line:col everywhere.
    const m = err instanceof SvcError ? /^JSON line (\d+) column (\d+): (.*)$/s.exec(err.message) : null;
    if (m) throw invalid(`${name}:${m[1]}:${m[2]}: ${m[3]}`);
    throw err;
  }
}

/**
 * A file with nothing in it is refused in every format, as an empty request body is: an empty
 * TOML document would otherwise be a stack of no services, and a file caught half-written (just
 * truncated by the writer) would prune everything it owns.
 */
export function emptyFile(name: string): SvcError {
  return invalid(`${name}: the file is empty: a stack document is required (an empty \`services\` list for a stack of no programs; delete the file to remove its programs)`);
}
