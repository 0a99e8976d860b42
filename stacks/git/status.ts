/** One git source as `svc stack status` and GET /api/v1/stack/status show it. */
export interface GitSourceStatus {
  name: string;
  /** `git:<name>`, the source label of its programs. */
  source: string;
  url: string;
  /** `branch main` or `tag v1`. */
  ref: string;
  path: string;
  host: string;
  verify: boolean;
  allow_drift: boolean;
  interval_secs: number;
  /** A commit `svc sync --to` pinned the source to, until `svc sync --unpin`. */
  pinned: string | null;
  /** The commit in force, or null before the first good one. */
  applied: { commit: string; time: number; subject: string; applied_at: number } | null;
  /** The commit the ref pointed at on the last successful fetch. */
  head: string | null;
  last_fetch: { at: number; ok: boolean } | null;
  /** The last failure (fetch, signature, parse, validation), null after a good sync. */
  last_error: { at: number; commit: string | null; message: string } | null;
  /** Failed syncs since svcd started. */
  failures: number;
  /** Apply lines of the last good sync. */
  lines: string[];
}

/** The commit in force: the pinned one, else the last fetched head, else the last applied; null before any fetch. */
export function commitInForce(status: Pick<GitSourceStatus, 'pinned' | 'head' | 'applied'>): string | null {
  return status.pinned ?? status.head ?? status.applied?.commit ?? null;
}

/** What the daemon remembers of a source across restarts (`status:gitops:<name>`). */
export interface GitSourceRecord {
  url: string;
  applied: { commit: string; time: number; subject: string; applied_at: number } | null;
  pinned: string | null;
}

export function parseGitRecord(value: unknown): GitSourceRecord | null {
  const v = value as Partial<GitSourceRecord> | null;
  if (typeof v?.url !== 'string' || (v.pinned !== null && typeof v.pinned !== 'string')) return null;
  const a = v.applied;
  if (a !== null && (typeof a?.commit !== 'string' || typeof a.time !== 'number' || typeof a.subject !== 'string' || typeof a.applied_at !== 'number')) return null;
  return { url: v.url, applied: a ?? null, pinned: v.pinned ?? null };
}
