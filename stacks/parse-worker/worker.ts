import { parentPort } from 'node:worker_threads';
import { SvcError } from '../../state/errors.js';
import { parseDocumentText, type ParsedDocument } from '../document.js';
import { pathKey, POSITION_DEPTH, type ParseReply, type ParseRequest } from './protocol.js';

/**
 * The parse worker: parses one document at a time and sends back the value with a table of
 * positions (a locator cannot cross threads). Runs under the heap and stack limits that
 * DocumentParser gives it, so a hostile document costs this thread, never the event loop.
 */
parentPort?.on('message', (req: ParseRequest) => {
  let reply: ParseReply;
  try {
    const doc = parseDocumentText(req.text, req.format, req.path);
    reply = { id: req.id, ok: true, value: doc.value, positions: positionTable(doc) };
  } catch (err) {
    reply = { id: req.id, ok: false, message: (err as Error).message, invalid: err instanceof SvcError && err.code === 'SVC_INVALID' };
  }
  parentPort?.postMessage(reply);
});

function positionTable(doc: ParsedDocument): Map<string, [number, number]> {
  const table = new Map<string, [number, number]>();
  const visit = (value: unknown, path: (string | number)[]) => {
    if (path.length > 0) {
      const pos = doc.locate(path);
      if (pos) table.set(pathKey(path), [pos.line, pos.column]);
    }
    if (path.length >= POSITION_DEPTH || typeof value !== 'object' || value === null) return;
    if (Array.isArray(value)) value.forEach((item, i) => visit(item, [...path, i]));
    else for (const [key, item] of Object.entries(value)) visit(item, [...path, key]);
  };
  visit(doc.value, []);
  return table;
}
