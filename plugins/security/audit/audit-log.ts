import { createReadStream } from 'node:fs';
import { open, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../../state/atomic-file.js';
import { Mutex } from '../../../state/mutex.js';
import { formatRecord, GENESIS, lineDigest, verifyAudit, type AuditEntry, type AuditHead, type AuditRecord, type VerifyResult } from './chain.js';

const TAIL_BYTES = 64 * 1024;

/**
 * The security plugin's audit log: `data/audit.log`, one JSON record per line, each carrying the
 * digest of the line before (chain.ts), and `data/audit.head` with the last record's number and
 * digest. Appends are serialized, fsynced, and the head follows each one.
 */
export class AuditLog {
  private readonly mutex = new Mutex();

  private constructor(
    readonly file: string,
    readonly headFile: string,
    private seq: number,
    private prev: string,
    private readonly now: () => number,
  ) {}

  /**
   * Opens the log in `dir` and continues its chain. When the log does not end where its head
   * says (records cut off, or the files replaced), that is recorded as the next record and
   * returned as a warning: svcd keeps running, and the evidence stays in the log.
   */
  static async open(dir: string, now: () => number): Promise<{ log: AuditLog; warning: string | null }> {
    const file = join(dir, 'audit.log');
    const headFile = join(dir, 'audit.head');
    const head = await readHead(headFile);
    const end = await readEnd(file);
    const log = new AuditLog(file, headFile, end.seq, end.prev, now);
    if (end.cut) await log.appendRaw('\n'); // keep the cut line as evidence, start a new one after it
    let warning: string | null = null;
    if (head && (head.seq !== end.seq || head.digest !== end.prev)) {
      warning = `audit log ${file} does not end where ${headFile} says (head: record ${head.seq}, log: record ${end.seq}): it was edited, truncated or replaced; run svc audit --verify`;
      await log.append({ ts: now(), actor: { kind: 'svcd' }, method: 'SVCD', path: 'audit/head-mismatch', status: 0, detail: { head, found: { seq: end.seq, digest: end.prev } } });
    }
    return { log, warning };
  }

  append(entry: AuditEntry): Promise<void> {
    return this.mutex.run(async () => {
      const line = formatRecord(entry, this.seq + 1, this.prev);
      await this.appendRaw(`${line}\n`);
      this.seq += 1;
      this.prev = lineDigest(line);
      await writeFileAtomic(this.headFile, `${JSON.stringify({ seq: this.seq, digest: this.prev } satisfies AuditHead)}\n`);
    });
  }

  /** Every record that parses (a broken line is skipped here; verify() reports it). */
  async records(): Promise<AuditRecord[]> {
    const text = await this.mutex.run(() => readText(this.file));
    const out: AuditRecord[] = [];
    for (const line of text.split('\n')) {
      if (!line) continue;
      try {
        out.push(JSON.parse(line) as AuditRecord);
      } catch {
        // reported by verify()
      }
    }
    return out;
  }

  /** Checks the files as they are on disk now. */
  verify(): Promise<VerifyResult> {
    return this.mutex.run(async () => verifyAudit(await readText(this.file), await readHead(this.headFile)));
  }

  private async appendRaw(text: string): Promise<void> {
    const handle = await open(this.file, 'a', 0o600);
    try {
      await handle.write(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
  }
}

/** Reads a log and its head from disk (svc audit --verify --root, without a daemon). */
export async function verifyAuditFiles(dir: string): Promise<VerifyResult> {
  return verifyAudit(await readText(join(dir, 'audit.log')), await readHead(join(dir, 'audit.head')));
}

async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw err;
  }
}

async function readHead(file: string): Promise<AuditHead | null> {
  const text = await readText(file);
  if (text === '') return null;
  try {
    const head = JSON.parse(text) as AuditHead;
    if (Number.isSafeInteger(head.seq) && /^[0-9a-f]{64}$/.test(head.digest)) return head;
  } catch {
    // an unreadable head is treated as a mismatch below
  }
  return { seq: -1, digest: 'unreadable' };
}

/** Where the chain continues: the last line's number and digest, from the file's tail. */
async function readEnd(file: string): Promise<{ seq: number; prev: string; cut: boolean }> {
  let size: number;
  try {
    size = (await stat(file)).size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { seq: 0, prev: GENESIS, cut: false };
    throw err;
  }
  if (size === 0) return { seq: 0, prev: GENESIS, cut: false };
  const handle = await open(file, 'r');
  let tail: string;
  try {
    const length = Math.min(size, TAIL_BYTES);
    const buf = Buffer.alloc(length);
    await handle.read(buf, 0, length, size - length);
    tail = buf.toString('utf8');
  } finally {
    await handle.close();
  }
  const cut = !tail.endsWith('\n');
  const lines = tail.split('\n');
  if (!cut) lines.pop();
  const last = lines[lines.length - 1] ?? '';
  let seq: number | undefined;
  try {
    seq = (JSON.parse(last) as { seq?: number }).seq;
  } catch {
    seq = undefined;
  }
  if (cut || typeof seq !== 'number') seq = await countLines(file); // a damaged end: number by position
  return { seq, prev: lineDigest(last), cut };
}

function countLines(file: string): Promise<number> {
  return new Promise((resolve, reject) => {
    let count = 0;
    let lastByte = 0x0a;
    createReadStream(file)
      .on('data', (chunk: string | Buffer) => {
        if (typeof chunk === 'string') return;
        for (const b of chunk) if (b === 0x0a) count++;
        lastByte = chunk[chunk.length - 1] ?? lastByte;
      })
      .on('error', reject)
      .on('end', () => resolve(lastByte === 0x0a ? count : count + 1));
  });
}
