import type { SignalName } from '../../state/signals.js';

/** Mode and owner of a file; `uid`/`gid` of -1 leave the owner as it is. */
export interface FileMeta {
  mode: number;
  uid: number;
  gid: number;
}

/**
 * The filesystem as the OTA steps see it (node-fs.ts in production, a fake in tests). Every
 * change is durable when the promise resolves (files and their directory are synced).
 */
export interface OtaFs {
  /** SHA-256 (hex) of a file's contents; null when it does not exist. */
  digest(path: string): Promise<string | null>;
  stat(path: string): Promise<FileMeta | null>;
  /** A hard link `path` to `existing` (same inode: same contents, mode and owner). */
  link(existing: string, path: string): Promise<void>;
  /** A copy with the same contents, mode and owner. */
  copy(from: string, to: string): Promise<void>;
  /** Atomic replace within one filesystem. */
  rename(from: string, to: string): Promise<void>;
  setMeta(path: string, meta: FileMeta): Promise<void>;
  /** Removes a file; a missing one is fine. */
  remove(path: string): Promise<void>;
}

export interface DownloadRequest {
  url: string;
  /** Written from scratch (truncated), mode 0600, synced before the promise resolves. */
  file: string;
  /** Overall deadline; 0 disables it (the connect timeout still applies). */
  timeoutMs: number;
  maxBytes: number;
  signal: AbortSignal;
  /** Told after each chunk written: the bytes received so far and the announced size (null: none). */
  onProgress?: (receivedBytes: number, totalBytes: number | null) => void;
}

/** Streams a URL to a file, hashing while it streams. Rejects with a readable message. */
export interface Downloader {
  download(req: DownloadRequest): Promise<{ digest: string; bytes: number }>;
}

export interface ExtractRequest {
  archive: string;
  /** Where the one payload file is written (mode 0600, synced). */
  out: string;
  /** The destination's base name: the payload when the archive holds several files. */
  name: string;
  maxBytes: number;
  signal: AbortSignal;
}

/** Stages the one payload file of a .tar, .tar.gz, .tgz or .zip archive (docs/ota.md). */
export interface Extractor {
  extract(req: ExtractRequest): Promise<{ digest: string; entry: string; bytes: number }>;
}

/** A refusal that trying again cannot fix (an archive with links, `..`, no payload...). */
export class PermanentStepError extends Error {
  override name = 'PermanentStepError';
}

/**
 * Writing the staged payload failed (disk full, I/O error, permissions): not the archive's
 * fault, so the archive readers pass it on as it is and the attempt is retried.
 */
export class StagingWriteError extends Error {
  override name = 'StagingWriteError';
}

export interface OtaPorts {
  fs: OtaFs;
  downloader: Downloader;
  extractor: Extractor;
  /** Signals the process group of pid (the OS port's signal). */
  signal(pid: number, signal: SignalName): void;
  /** Releases connections (the downloader's agent). */
  close?(): Promise<void>;
}

/** Sizes and counts from `[ota]` in svc.toml (docs/configuration.md). */
export interface OtaLimits {
  maxDownloadBytes: number;
  maxExtractBytes: number;
  maxAttempts: number;
}
