import type { GitSourceConfig } from './source-config.js';

/** A commit as status and events show it. */
export interface CommitInfo {
  /** Full commit id. */
  id: string;
  /** Committer time, Unix milliseconds. */
  time: number;
  subject: string;
}

/**
 * Everything svcd asks of git, behind one port so the sync logic is tested with a fake.
 * The real one (git-cli.ts) runs the system `git` on svcd's own bare cache under data/git/.
 */
export interface GitPort {
  /** Fetches the source's branch or tag into the cache; resolves to the commit it points at. */
  fetch(src: GitSourceConfig): Promise<string>;
  /** A commit id (full or abbreviated) already fetched, as a full id; throws when unknown. */
  resolve(src: GitSourceConfig, rev: string): Promise<string>;
  info(src: GitSourceConfig, commit: string): Promise<CommitInfo>;
  /** null when the commit is signed by a key of `src.allowed_signers`, else why not. */
  verify(src: GitSourceConfig, commit: string): Promise<string | null>;
  /** The stack files (.json/.toml/.yaml/.yml) under `src.path` at `commit`: path in repo -> text. */
  snapshot(src: GitSourceConfig, commit: string): Promise<Map<string, string>>;
  /**
   * Keeps `commit` (the pin) in the cache whatever the followed ref does (a force-push, then git's
   * automatic gc, would drop it); null lets it go.
   */
  keep?(src: GitSourceConfig, commit: string | null): Promise<void>;
  /** Ends every git command under way (svcd stopping); later calls fail at once. */
  close?(): void;
}
