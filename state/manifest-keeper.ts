import type { ProgramManifest } from './program-manifest.js';
import type { ProgramRecord } from './program.js';
import { unwritable } from './level/store-errors.js';
import type { Change, StoreLog } from './store-types.js';

const entries = (records: Iterable<ProgramRecord>): [string, string][] => [...records].map((r) => [r.id, r.config.name]);

/**
 * Keeps the program manifest (program-manifest.ts) a subset of the stored programs around each
 * write of the store, and compares it with what LevelDB returned at open. Without a manifest
 * (memory-level) it does nothing.
 */
export class ManifestKeeper {
  /** The manifest lags behind (a write after a commit failed); rewritten at the next chance. */
  private stale = false;

  constructor(
    private readonly manifest: ProgramManifest | null,
    private readonly dir: string,
    private readonly log?: StoreLog,
  ) {}

  get file(): string | null {
    return this.manifest?.file ?? null;
  }

  /** Programs the manifest lists that are not `present` (loaded or quarantined): lost inside LevelDB. */
  async missing(present: Set<string>): Promise<[string, string][]> {
    const listed = await this.manifest?.read();
    return listed ? [...listed].filter(([id]) => !present.has(id)) : [];
  }

  /** Before a write that removes programs: the manifest without them. A failure refuses the write (nothing changed). */
  async beforeCommit(current: Map<string, ProgramRecord>, change: Change): Promise<void> {
    if (!this.manifest || !change.del.some((id) => current.has(id))) return;
    const gone = new Set(change.del);
    try {
      await this.manifest.write(entries([...current.values()].filter((r) => !gone.has(r.id))));
    } catch (err) {
      throw unwritable(err, 'the state store', this.dir);
    }
  }

  /** Whether a change adds or renames programs: the manifest is rewritten after it is committed. */
  static grows(current: Map<string, ProgramRecord>, change: Change): boolean {
    return change.put.some((r) => current.get(r.id)?.config.name !== r.config.name);
  }

  /** A write was not committed after the manifest was rewritten for it: rewrite it with the next write. */
  markStale(): void {
    if (this.manifest) this.stale = true;
  }

  /** After a committed write: rewrites the manifest when the write added or renamed programs, or when it lags. */
  async afterCommit(current: Map<string, ProgramRecord>, grew: boolean): Promise<void> {
    if (grew || this.stale) await this.rewrite(current);
  }

  /** Writes the manifest from the programs in memory; a failure leaves it a subset, rewritten later. */
  async rewrite(current: Map<string, ProgramRecord>): Promise<void> {
    if (!this.manifest) return;
    try {
      await this.manifest.write(entries(current.values()));
      this.stale = false;
    } catch (err) {
      this.stale = true;
      this.log?.warn('program manifest not updated yet; it is rewritten with the next write', { error: (err as Error).message });
    }
  }
}
