import { openSync, readdirSync, readFileSync, readSync, closeSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ClassicLevel } from 'classic-level';

/** The write-ahead logs (`NNNNNN.log`) of a LevelDB directory, newest last. */
export function walFiles(location: string): string[] {
  return readdirSync(location)
    .filter((n) => /^\d+\.log$/.test(n))
    .sort()
    .map((n) => join(location, n));
}

/** XORs `count` bytes of `file` from `offset` with 0xff (what a bad sector or a stray write does). */
export function flipBytes(file: string, offset: number, count = 1): void {
  const bytes = readFileSync(file);
  for (let i = offset; i < offset + count; i++) bytes[i] ^= 0xff;
  writeFileSync(file, bytes);
}

/** Sets `count` bytes of `file` from `offset` to zero. */
export function zeroBytes(file: string, offset: number, count: number): void {
  const bytes = readFileSync(file);
  bytes.fill(0, offset, offset + count);
  writeFileSync(file, bytes);
}

/** The first `n` bytes of a file (to show a refusal changed nothing). */
export function head(file: string, n = 1 << 20): Buffer {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(n);
    return buf.subarray(0, readSync(fd, buf, 0, n, 0));
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes raw entries into a sublevel of a closed LevelDB (a record svc itself would never write),
 * in one batch, or with `oneWriteEach` one log record per entry (to damage the middle of a log).
 */
export async function putRaw(location: string, sublevel: string, entries: [string, string][], opts: { oneWriteEach?: boolean } = {}): Promise<void> {
  const db = new ClassicLevel<string, string>(location);
  await db.open();
  try {
    const sub = db.sublevel(sublevel);
    if (opts.oneWriteEach) for (const [key, value] of entries) await sub.put(key, value);
    else await sub.batch(entries.map(([key, value]) => ({ type: 'put' as const, key, value })));
  } finally {
    await db.close();
  }
}
