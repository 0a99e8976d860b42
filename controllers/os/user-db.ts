import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import type { UserInfo } from './port.js';

export interface UserDbOptions {
  passwdFile?: string;
  groupFile?: string;
  /** The NSS query tool; null: the files only. */
  getent?: string | null;
  /** How long an answer of getent is kept (found or not). */
  keepMs?: number;
  now?: () => number;
}

/** getent's exit status for "no such entry". */
const NOT_FOUND = 2;
/** An NSS source that does not answer (LDAP down) must not hold svcd's main thread for long. */
const GETENT_TIMEOUT_MS = 2000;

/**
 * Users and groups as the C library's initgroups would see them: /etc/passwd and /etc/group
 * first (read directly: no process per spawn), then every other NSS source (LDAP, sssd,
 * systemd's dynamic users) through `getent`, whose answers are kept for a while because each
 * query runs a process and blocks svcd until it answers (at most 2 s). A files user's
 * supplementary groups are those /etc/group lists; an NSS user's are `getent initgroups`'.
 */
export class UserDb {
  private readonly passwdFile: string;
  private readonly groupFile: string;
  private readonly getent: string | null;
  private readonly keepMs: number;
  private readonly now: () => number;
  private readonly kept = new Map<string, { at: number; out: string | null }>();

  constructor(opts: UserDbOptions = {}) {
    this.passwdFile = opts.passwdFile ?? '/etc/passwd';
    this.groupFile = opts.groupFile ?? '/etc/group';
    this.getent = opts.getent === undefined ? (existsSync('/usr/bin/getent') ? '/usr/bin/getent' : null) : opts.getent;
    this.keepMs = opts.keepMs ?? 30_000;
    this.now = opts.now ?? Date.now;
  }

  lookupUser(nameOrId: string | number): UserInfo | null {
    const local = findRow(readText(this.passwdFile), nameOrId);
    if (local) return userOf(local, memberGroups(readText(this.groupFile), local[0] ?? ''));
    const row = firstRow(this.query('passwd', String(nameOrId)));
    if (!row || !validIds(row[2], row[3])) return null;
    const name = row[0] ?? '';
    return userOf(row, (this.query('initgroups', name) ?? '').trim().split(/\s+/).slice(1).filter(isId).map(Number));
  }

  lookupGroup(nameOrId: string | number): number | null {
    const row = findRow(readText(this.groupFile), nameOrId) ?? firstRow(this.query('group', String(nameOrId)));
    return row && isId(row[2]) ? Number(row[2]) : null;
  }

  /** getent's output for one key, or null when it has no such entry or cannot answer. */
  private query(db: 'passwd' | 'group' | 'initgroups', key: string): string | null {
    if (!this.getent || key === '' || key.startsWith('-') || key.includes('\0')) return null;
    const cacheKey = `${db}\0${key}`;
    const hit = this.kept.get(cacheKey);
    if (hit && this.now() - hit.at < this.keepMs) return hit.out;
    let out: string | null;
    try {
      out = execFileSync(this.getent, [db, key], { encoding: 'utf8', timeout: GETENT_TIMEOUT_MS, stdio: ['ignore', 'pipe', 'ignore'], env: { PATH: '/usr/bin:/bin' } });
    } catch (err) {
      // 2: no such entry. Anything else (a timeout, a broken source) is not kept: asked again next time.
      if ((err as { status?: number }).status !== NOT_FOUND) return null;
      out = null;
    }
    this.kept.set(cacheKey, { at: this.now(), out });
    return out;
  }
}

function userOf(row: string[], groups: number[]): UserInfo {
  return { name: row[0] ?? '', uid: Number(row[2]), gid: Number(row[3]), home: row[5] || '/', groups };
}

const isId = (s: string | undefined): s is string => s !== undefined && /^\d+$/.test(s);
const validIds = (uid: string | undefined, gid: string | undefined) => isId(uid) && isId(gid);

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function firstRow(text: string | null): string[] | null {
  const line = text?.split('\n')[0];
  return line ? line.split(':') : null;
}

/** The row of a passwd- or group-format text whose name (or, for a number, id) is `nameOrId`. */
function findRow(text: string, nameOrId: string | number): string[] | null {
  if (!text) return null;
  const key = String(nameOrId);
  const byId = /^\d+$/.test(key);
  for (const line of text.split('\n')) {
    const row = line.split(':');
    if ((byId ? row[2] : row[0]) === key) return row;
  }
  return null;
}

/** The gids of the groups of an /etc/group text whose member list names `user`. */
export function memberGroups(groupFile: string, user: string): number[] {
  const gids: number[] = [];
  for (const line of groupFile.split('\n')) {
    const row = line.split(':');
    if (row.length >= 4 && /^\d+$/.test(row[2] ?? '') && (row[3] ?? '').split(',').includes(user)) gids.push(Number(row[2]));
  }
  return gids;
}
