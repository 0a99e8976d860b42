import { PermanentStepError } from './ports.js';

export type EntryKind = 'file' | 'directory' | 'symlink' | 'hardlink' | 'device' | 'fifo' | 'other';

/** One archive member as listed (before anything is written). */
export interface ArchiveEntry {
  path: string;
  kind: EntryKind;
  size: number;
}

/** Why an entry makes the whole archive unacceptable, or null. */
export function entryProblem(entry: ArchiveEntry): string | null {
  const path = entry.path.replace(/\\/g, '/');
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) return `'${entry.path}' has an absolute path`;
  if (path.split('/').includes('..')) return `'${entry.path}' refers outside the archive ('..')`;
  switch (entry.kind) {
    case 'file':
    case 'directory':
      return null;
    case 'symlink':
    case 'hardlink':
      return `'${entry.path}' is a ${entry.kind === 'symlink' ? 'symbolic' : 'hard'} link`;
    case 'device':
    case 'fifo':
      return `'${entry.path}' is a device or special file`;
    case 'other':
      return `'${entry.path}' has an unsupported entry type`;
  }
}

const MAX_ENTRIES = 100_000;

function overCap(bytes: number, maxBytes: number): string {
  return `the archive holds ${bytes} bytes of files, more than ota.max_extract_bytes (${maxBytes})`;
}

/**
 * An archive's entries as a lister reads them, refused at the first entry that makes the archive
 * unacceptable. A tar is decompressed as it is listed: without this, a link at its start or a
 * file past the cap would still have the whole archive inflated before the refusal.
 */
export class ArchiveListing {
  readonly entries: ArchiveEntry[] = [];
  private fileBytes = 0;

  constructor(private readonly maxBytes: number) {}

  add(entry: ArchiveEntry): void {
    if (this.entries.length >= MAX_ENTRIES) throw new PermanentStepError(`more than ${MAX_ENTRIES} entries`);
    const problem = entryProblem(entry);
    if (problem) throw new PermanentStepError(problem);
    if (entry.kind === 'file') {
      this.fileBytes += entry.size;
      if (this.fileBytes > this.maxBytes) throw new PermanentStepError(overCap(this.fileBytes, this.maxBytes));
    }
    this.entries.push(entry);
  }
}

export function baseName(path: string): string {
  const parts = path.replace(/\\/g, '/').split('/').filter((p) => p !== '' && p !== '.');
  return parts[parts.length - 1] ?? '';
}

/**
 * The payload rule (docs/ota.md): every entry must be acceptable and the files together at most
 * `maxBytes`; the payload is the only regular file, or else the one regular file whose base name
 * is the destination's (`name`). Anything else is refused, permanently: the archive's checksum
 * was verified, so trying it again changes nothing.
 */
export function choosePayload(entries: ArchiveEntry[], name: string, maxBytes: number): ArchiveEntry {
  for (const entry of entries) {
    const problem = entryProblem(entry);
    if (problem) throw new PermanentStepError(problem);
  }
  const files = entries.filter((e) => e.kind === 'file');
  const total = files.reduce((sum, e) => sum + e.size, 0);
  if (total > maxBytes) throw new PermanentStepError(overCap(total, maxBytes));
  if (files.length === 0) throw new PermanentStepError('the archive holds no regular file');
  if (files.length === 1) return files[0];
  const named = files.filter((e) => baseName(e.path) === name);
  if (named.length === 1) return named[0];
  if (named.length === 0) throw new PermanentStepError(`the archive holds ${files.length} files and none is named '${name}' (the destination's name)`);
  throw new PermanentStepError(`the archive holds ${named.length} files named '${name}': ${named.map((e) => e.path).join(', ')}`);
}
