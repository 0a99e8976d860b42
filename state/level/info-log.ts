import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';

/** Bytes LevelDB says it dropped while opening (its own `LOG`, rewritten at every open). */
export interface DroppedBytes {
  file: string;
  bytes: number;
  reason: string;
}

const DROPPING = /(\S+): dropping (\d+) bytes; (.*)$/;

/**
 * What LevelDB's recovery reported as dropped during the open that just happened. LevelDB
 * keeps going after it logs such a line (it has no paranoid mode in classic-level), so svc
 * reads the log to make sure no loss passes unnoticed.
 */
export async function droppedAtOpen(location: string): Promise<DroppedBytes[]> {
  let text: string;
  try {
    text = await readFile(join(location, 'LOG'), 'utf8');
  } catch {
    return []; // no info log (memory-level, or LevelDB could not create one): nothing reported
  }
  const out: DroppedBytes[] = [];
  for (const line of text.split('\n')) {
    const m = DROPPING.exec(line);
    if (m) out.push({ file: basename(m[1]), bytes: Number(m[2]), reason: m[3] });
  }
  return out;
}
