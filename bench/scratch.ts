import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RUN_ID } from './cleanup.js';

/**
 * Where the managers under test keep their files during a run (roots, homes, log files), all
 * removed only when the bench exits.
 *
 * Why not remove each manager's directory when it stops: ext4 does not reuse an inode freed in the
 * last 60-300 s (fs/ext4/ialloc.c, `recently_deleted`), and it checks each such inode one by one
 * while it looks for a free one. Removing one manager's 1,000 log files right before the next
 * manager created its own made every creation scan past them: 0.5-0.6 ms per file instead of
 * 0.02 (perf: svc-spawner's CPU in `recently_deleted` and `find_inode_bit`), up to 0.7 s of one
 * start of 500. That measured the bench's own clean-up, and hit every manager that writes logs
 * (all but the floors). A run started within a minute or two of a test run or another bench run
 * may still see it in its first scenarios.
 */
// SVC_BENCH_SCRATCH names where the run's own directory goes (another file system, tmpfs); only
// that directory is removed, never the one the variable names.
const root = join(process.env.SVC_BENCH_SCRATCH ?? tmpdir(), `svc-bench-${RUN_ID}`);
let made = false;

/** A new directory for one manager or scenario, removed when the bench exits. */
export function scratchDir(prefix: string): string {
  if (!made) {
    mkdirSync(root, { recursive: true });
    process.once('exit', () => rmSync(root, { recursive: true, force: true }));
    made = true;
  }
  return mkdtempSync(join(root, prefix));
}
