import { dirname, relative, resolve } from 'node:path';
import { formatFromName } from './document.js';
import { emptyFile, type Preparsed, type ReadText } from './load.js';
import type { DocumentParser } from './parse-worker/parser.js';
import { readStackShape } from './shape.js';

/**
 * Parses a stack file and the files it includes ahead of `loadStackFile`, through the parser's
 * worker, so that loading a large file from the watched directory never blocks the event loop.
 * Errors are kept for the loader to raise in document order (its messages stay the same);
 * unreadable files are left out for the loader to report.
 */
export async function preparseStackFile(path: string, read: ReadText, parser: DocumentParser, topLabel = path): Promise<Preparsed> {
  const top = resolve(path);
  const base = dirname(top);
  const label = (abs: string) => (abs === top ? topLabel : relative(base, abs));
  const out: Preparsed = new Map();
  const visit = async (abs: string): Promise<void> => {
    if (out.has(abs)) return;
    const format = formatFromName(abs);
    if (!format) return;
    let text: string;
    try {
      text = read(abs);
    } catch {
      return;
    }
    try {
      if (text.trim() === '') throw emptyFile(label(abs));
      const doc = await parser.parse(text, format, label(abs));
      out.set(abs, doc);
      const includes = readStackShape(doc, label(abs)).include;
      for (const inc of includes) await visit(resolve(dirname(abs), inc));
    } catch (err) {
      if (!out.has(abs)) out.set(abs, err as Error);
    }
  };
  await visit(top);
  return out;
}
