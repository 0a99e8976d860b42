import { describeOpenReport, lostAtOpen, type DamagePolicy, type OpenReport } from './level/open-level.js';
import { StoreOpenError } from './level/store-errors.js';
import type { ManifestKeeper } from './manifest-keeper.js';
import { ManifestDamaged } from './program-manifest.js';
import type { StoreLog } from './store-types.js';

/** How a refusal of the state store tells the user to proceed (docs/operations.md). */
export const REMEDY =
  "Restore it from a backup, or run 'svcd --repair-store' once to keep every readable record (it copies a damaged log aside first and prints what it kept and what was lost).";

/**
 * What opening the state store found lost, for the daemon log and `svc storage`: damaged bytes
 * of its write-ahead log, and programs the manifest lists that LevelDB no longer returns.
 */
export class OpenFindings {
  private wal: OpenReport | null = null;
  private lost: [string, string][] = [];
  /** Why the manifest could not be checked (accepted damage), or null. */
  private unchecked: string | null = null;

  constructor(
    private readonly opts: { location: string | null; damage?: DamagePolicy; log?: StoreLog },
    private readonly manifest: ManifestKeeper,
  ) {}

  /** What opening LevelDB found (level/open-level.ts); logged at error level when something was lost. */
  walReport(report: OpenReport): void {
    if (!lostAtOpen(report)) return;
    this.wal = report;
    this.opts.log?.error('the state store was damaged; what could be read was kept', { detail: describeOpenReport(report) });
  }

  /**
   * Refuses (or, with damage accepted, records) programs the manifest lists that are not `present`.
   * A damaged manifest refuses too: without it a loss inside LevelDB would pass unseen. Accepted,
   * it is rebuilt from what LevelDB holds (the store's load rewrites it).
   */
  async checkManifest(present: Set<string>): Promise<void> {
    let missing: [string, string][];
    try {
      missing = await this.manifest.missing(present);
    } catch (err) {
      if (!(err instanceof ManifestDamaged)) throw err;
      if ((this.opts.damage ?? 'refuse') === 'refuse') {
        throw new StoreOpenError(
          `the state store at ${this.opts.location ?? 'memory'} cannot check that it still holds every program it acknowledged: ${err.message}; svcd refuses to start. ` +
            "Run 'svcd --repair-store' once to rebuild the list from the programs LevelDB holds (it prints them), or restore the store from a backup.",
        );
      }
      this.unchecked = err.message;
      this.opts.log?.error('the program list was damaged; it is rebuilt from the programs LevelDB holds', { detail: err.message });
      return;
    }
    if (missing.length === 0) return;
    if ((this.opts.damage ?? 'refuse') === 'refuse') {
      throw new StoreOpenError(
        `the state store at ${this.opts.location ?? 'memory'} has lost ${missing.length} program(s) it had acknowledged: ${named(missing)} (listed in ${this.manifest.file}, not found in LevelDB); svcd refuses to start. ${REMEDY}`,
      );
    }
    this.lost = missing;
    this.opts.log?.error('the state store lost programs it had acknowledged', { programs: missing.map(([, name]) => name) });
  }

  /** One sentence, or null when the open lost nothing. */
  describe(): string | null {
    const parts = [
      ...(this.wal ? [describeOpenReport(this.wal)] : []),
      ...(this.lost.length > 0 ? [`programs lost: ${named(this.lost)}`] : []),
      ...(this.unchecked ? [`${this.unchecked}: rebuilt from the programs LevelDB holds (a program lost inside LevelDB could not be noticed)`] : []),
    ];
    return parts.length > 0 ? parts.join('; ') : null;
  }
}

const named = (programs: [string, string][]) => programs.map(([id, name]) => `'${name}' (${id})`).join(', ');
