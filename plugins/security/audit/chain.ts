import { createHash } from 'node:crypto';

/** The `prev` of the first record. */
export const GENESIS = '0'.repeat(64);

/** Who did it: a token, the admin secret, open mode, or nobody valid (a refused request). */
export interface AuditActor {
  kind: 'token' | 'secret' | 'open' | 'anonymous' | 'svcd';
  id?: string;
  name?: string;
  role?: string;
}

/** One line of `data/audit.log`. */
export interface AuditRecord {
  /** 1, 2, 3... without gaps. */
  seq: number;
  /** Unix milliseconds. */
  ts: number;
  actor: AuditActor;
  /** The HTTP method, or `SVCD` for what svcd itself records. */
  method: string;
  path: string;
  query?: string;
  /** The HTTP status answered (the result). */
  status: number;
  /** What the route adds (e.g. the token created); never a secret. */
  detail?: Record<string, unknown>;
  /** SHA-256 (hex) of the previous line's text, GENESIS for the first. */
  prev: string;
}

export type AuditEntry = Omit<AuditRecord, 'seq' | 'prev'>;

/** The last record written, kept in `data/audit.head` so that cutting records off the end shows. */
export interface AuditHead {
  seq: number;
  digest: string;
}

export function lineDigest(line: string): string {
  return createHash('sha256').update(line).digest('hex');
}

/** The text of a record (no newline): fixed key order, so the digest is reproducible. */
export function formatRecord(entry: AuditEntry, seq: number, prev: string): string {
  const { ts, actor, method, path, query, status, detail } = entry;
  return JSON.stringify({ seq, ts, actor, method, path, ...(query ? { query } : {}), status, ...(detail ? { detail } : {}), prev });
}

export type VerifyResult = { ok: true; records: number; notes: string[] } | { ok: false; records: number; problem: string };

/**
 * Checks a whole log against its head: every line parses, numbers run 1, 2, 3..., each `prev`
 * is the digest of the line before, the text ends with a newline, and the head's record is
 * present with the head's digest. Detects an edited, inserted, removed or cut line and records
 * cut off the end. It cannot detect a log rewritten from scratch, chain and head included, by
 * someone who can write data/: keep a copy of the head elsewhere for that (docs/security.md).
 */
export function verifyAudit(text: string, head: AuditHead | null): VerifyResult {
  const lines = text.split('\n');
  const last = lines.pop();
  if (last !== undefined && last !== '') return { ok: false, records: lines.length, problem: `line ${lines.length + 1} is cut short (no newline): the log was truncated inside a record or edited` };
  let prev = GENESIS;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    let record: Partial<AuditRecord>;
    try {
      record = JSON.parse(line) as Partial<AuditRecord>;
    } catch {
      return { ok: false, records: lines.length, problem: `line ${i + 1} is not a JSON record: it was edited` };
    }
    if (record.seq !== i + 1) {
      const why = i === 0 ? 'records were removed from the start of the log' : `records were inserted or removed before it`;
      return { ok: false, records: lines.length, problem: `line ${i + 1} holds record ${String(record.seq)}, expected ${i + 1}: ${why}` };
    }
    if (record.prev !== prev) {
      return { ok: false, records: lines.length, problem: `line ${i + 1} (record ${i + 1}): its prev digest does not match line ${i}: line ${i} was edited, or records were removed` };
    }
    prev = lineDigest(line);
  }
  const notes: string[] = [];
  if (head) {
    if (head.seq < 0) return { ok: false, records: lines.length, problem: 'the head file is unreadable (not {"seq", "digest"}): it was edited or damaged' };
    if (head.seq > lines.length) {
      return { ok: false, records: lines.length, problem: `truncated: the head says record ${head.seq} was written, the log ends at record ${lines.length}` };
    }
    if (head.seq > 0 && lineDigest(lines[head.seq - 1] ?? '') !== head.digest) {
      return { ok: false, records: lines.length, problem: `record ${head.seq} does not match the digest in the head: it was edited` };
    }
    // svcd writes the record, then the head: a crash in between leaves one record past the head.
    if (lines.length - head.seq > 1) {
      return { ok: false, records: lines.length, problem: `${lines.length - head.seq} records after the head's record ${head.seq}: records were appended by something other than svcd` };
    }
    if (lines.length - head.seq === 1) notes.push(`record ${lines.length} is past the head (svcd stopped between writing a record and its head)`);
  } else if (lines.length > 0) {
    notes.push('no head file: records cut off the end cannot be detected');
  }
  return { ok: true, records: lines.length, notes };
}
