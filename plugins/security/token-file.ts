import { readFile } from 'node:fs/promises';
import { ROLES, type Role } from '../../state/auth/principal.js';
import { writeFileAtomic } from '../../state/atomic-file.js';

/** One Access Token as stored in `data/tokens.json`: never the secret, only its SHA-256. */
export interface TokenRecord {
  id: string;
  name: string;
  role: Role;
  /** Hex SHA-256 of the secret. */
  digest: string;
  /** Unix seconds. */
  created_at: number;
  /** Who created it: a token id, or `secret`. */
  created_by: string;
  /** Unix seconds of the last renew; absent when never renewed. */
  renewed_at?: number;
}

export const TOKEN_ID = /^tok_[0-9a-f]{12}$/;
export const TOKEN_NAME = /^[A-Za-z0-9][A-Za-z0-9 _.@-]{0,63}$/;

/** A tokens file that cannot be read as tokens: svcd refuses to start rather than lose them. */
export class CorruptTokensError extends Error {
  override name = 'CorruptTokensError';
}

/** Reads the tokens; a missing file is no tokens, anything unreadable or malformed throws. */
export async function readTokens(file: string): Promise<TokenRecord[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new CorruptTokensError(`${file}: cannot read: ${(err as Error).message}`);
  }
  const fail = (why: string) => new CorruptTokensError(`${file} is corrupt (${why}); refusing to start rather than discard Access Tokens: restore it from a backup, or move it away to start with no tokens`);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw fail(`not JSON: ${(err as Error).message}`);
  }
  const tokens = (doc as { version?: unknown; tokens?: unknown } | null)?.tokens;
  if ((doc as { version?: unknown } | null)?.version !== 1 || !Array.isArray(tokens)) throw fail('expected {"version": 1, "tokens": [...]}');
  const seen = new Set<string>();
  return tokens.map((t: unknown, i) => {
    const problem = checkRecord(t);
    if (problem) throw fail(`tokens[${i}]: ${problem}`);
    const record = t as TokenRecord;
    if (seen.has(record.id)) throw fail(`tokens[${i}]: duplicate id ${record.id}`);
    seen.add(record.id);
    return record;
  });
}

function checkRecord(t: unknown): string | null {
  if (typeof t !== 'object' || t === null) return 'not an object';
  const r = t as Record<string, unknown>;
  if (typeof r.id !== 'string' || !TOKEN_ID.test(r.id)) return 'id: must look like tok_<12 hex digits>';
  if (typeof r.name !== 'string' || !TOKEN_NAME.test(r.name)) return 'name: invalid';
  if (typeof r.role !== 'string' || !ROLES.includes(r.role as Role)) return 'role: must be viewer, operator or admin';
  if (typeof r.digest !== 'string' || !/^[0-9a-f]{64}$/.test(r.digest)) return 'digest: must be 64 hex digits';
  if (typeof r.created_at !== 'number' || !Number.isSafeInteger(r.created_at)) return 'created_at: must be Unix seconds';
  if (typeof r.created_by !== 'string') return 'created_by: must be a string';
  if (r.renewed_at !== undefined && (typeof r.renewed_at !== 'number' || !Number.isSafeInteger(r.renewed_at))) return 'renewed_at: must be Unix seconds';
  return null;
}

/** Replaces the tokens file atomically (mode 600). Callers serialize writes. */
export async function writeTokens(file: string, tokens: TokenRecord[]): Promise<void> {
  await writeFileAtomic(file, `${JSON.stringify({ version: 1, tokens }, null, 2)}\n`);
}
