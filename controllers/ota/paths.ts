import { basename, dirname, join } from 'node:path';

/**
 * Files next to the destination (same directory, so the same filesystem: renames are atomic).
 * Temporary files carry the program id so that programs never share one; the backup is one
 * generation, `<destination>.svc-backup`.
 */
export interface OtaPaths {
  download: string;
  staged: string;
  backupNext: string;
  backup: string;
}

export function otaPaths(destination: string, id: string): OtaPaths {
  const dir = dirname(destination);
  const prefix = `.${basename(destination)}.svc-ota-${id.slice(0, 8)}`;
  return {
    download: join(dir, `${prefix}.download`),
    staged: join(dir, `${prefix}.staged`),
    backupNext: join(dir, `${prefix}.backup-next`),
    backup: `${destination}.svc-backup`,
  };
}

/** What cleanup removes: never the destination nor the backup. */
export function tempFiles(destination: string, id: string): string[] {
  const p = otaPaths(destination, id);
  return [p.download, p.staged, p.backupNext];
}
