import { existsSync, readFileSync } from 'node:fs';
import type { Manager } from '../managers/manager.js';
import { sleep } from '../proc.js';
import { crashingProgram, parseStamps } from '../programs.js';
import { gaps } from '../stats.js';

/**
 * S3: one program that exits 1 at once, restarted without limit and with the smallest delay the
 * manager allows, for `secs`. Returns the intervals (ms) between consecutive starts, taken from
 * the timestamps the program itself appends to `file` on each start.
 */
export async function crashRestart(m: Manager, file: string, secs: number): Promise<number[]> {
  await m.add([crashingProgram('crasher', file)]);
  await sleep(secs * 1000);
  await m.stopAll();
  return existsSync(file) ? gaps(parseStamps(readFileSync(file, 'utf8'))) : [];
}
