import type { ManifestLine, ProgramManifest } from './program-manifest.js';
import type { ProgramRecord } from './program.js';
import { unwritable } from './level/store-errors.js';
import type { Change, StoreLog } from './store-types.js';

const entries = (records: Iterable<ProgramRecord>): [string, string][] => [...records].map((r) => [r.id, r.config.name]);

/** Appended lines beyond which the manifest is compacted into a fresh snapshot: O(programs) now and then, not per write. */
const compactAfter = (programs: number): number => Math.max(256, 2 * programs);

/**
 * Keeps the program manifest (program-manifest.ts) a subset of the stored programs around each
 * write of the store, and compares it with what LevelDB returned at open. Without a manifest
 * (memory-level) it does nothing.
 */
export class ManifestKeeper {
  /** The manifest lags behind (a write after a commit failed) or may end in a torn line: snapshot it at the next chance. */
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
    const removed = change.del.filter((id) => current.has(id));
    if (!this.manifest || removed.length === 0) return;
    try {
      if (this.stale) {
        const gone = new Set(removed);
        await this.snapshot(entries([...current.values()].filter((r) => !gone.has(r.id))));
      } else await this.manifest.append(removed.map((id) => ({ del: id })));
    } catch (err) {
      this.stale = true;
      throw unwritable(err, 'the state store', this.dir);
    }
  }

  /** What a change adds to the manifest once it is committed: new programs and new names. */
  static additions(current: Map<string, ProgramRecord>, change: Change): ManifestLine[] {
    return change.put.filter((r) => current.get(r.id)?.config.name !== r.config.name).map((r) => ({ add: r.id, name: r.config.name }));
  }

  /** A write was not committed after the manifest was changed for it: snapshot it with the next write. */
  markStale(): void {
    if (this.manifest) this.stale = true;
  }

  /** After a committed write: lists what it added (appended), or snapshots when the manifest lags or has grown long. */
  async afterCommit(current: Map<string, ProgramRecord>, added: readonly ManifestLine[]): Promise<void> {
    if (!this.manifest) return;
    if (this.stale || this.manifest.appended + added.length > compactAfter(current.size)) return this.rewrite(current);
    try {
      await this.manifest.append(added);
    } catch (err) {
      this.lagging(err);
    }
  }

  /** Writes the manifest from the programs in memory; a failure leaves it a subset, rewritten later. */
  async rewrite(current: Map<string, ProgramRecord>): Promise<void> {
    if (!this.manifest) return;
    try {
      await this.snapshot(entries(current.values()));
    } catch (err) {
      this.lagging(err);
    }
  }

  async close(): Promise<void> {
    await this.manifest?.close();
  }

  private async snapshot(programs: [string, string][]): Promise<void> {
    await this.manifest!.write(programs);
    this.stale = false;
  }

  private lagging(err: unknown): void {
    this.stale = true;
    this.log?.warn('program manifest not updated yet; it is rewritten with the next write', { error: (err as Error).message });
  }
}
