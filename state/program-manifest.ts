import { open, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';

/** The file's name inside the LevelDB directory; LevelDB leaves names it does not know alone. */
export const MANIFEST_FILE = 'SVC-PROGRAMS';

/**
 * The id and name of every program, in a small file next to LevelDB's own files, so that a
 * program lost inside LevelDB (a damaged table file, a log cut short), which LevelDB itself
 * does not notice, is noticed at open. It lives in `state.db/`, so a backup or a move of the
 * store carries it along.
 *
 * It never lists a program the store does not have: the store rewrites it before a write that
 * removes programs and after one that adds them, each time through a synced temporary file and
 * a rename. So after a crash at any point it is a subset of the stored programs.
 */
export class ProgramManifest {
  constructor(private readonly dir: string) {}

  get file(): string {
    return join(this.dir, MANIFEST_FILE);
  }

  /** The listed programs (id -> name), or null when there is no manifest yet (a store from before it existed). */
  async read(): Promise<Map<string, string> | null> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    const parsed = JSON.parse(text) as { programs?: Record<string, string> };
    if (parsed === null || typeof parsed.programs !== 'object' || parsed.programs === null) throw new Error(`${this.file} is not a program manifest`);
    return new Map(Object.entries(parsed.programs));
  }

  /** Replaces the manifest atomically and durably (temporary file, fsync, rename, fsync of the directory). */
  async write(programs: Iterable<[string, string]>): Promise<void> {
    const tmp = `${this.file}.tmp`;
    const file = await open(tmp, 'w');
    try {
      await file.writeFile(JSON.stringify({ version: 1, programs: Object.fromEntries(programs) }));
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(tmp, this.file);
    const dir = await open(this.dir, 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  }
}
