import { describeOpenReport, lostAtOpen, type DamagePolicy, type OpenReport } from './level/open-level.js';
import { StoreOpenError } from './level/store-errors.js';
import type { ManifestKeeper } from './manifest-keeper.js';
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

  /** Refuses (or, with damage accepted, records) programs the manifest lists that are not `present`. */
  async checkManifest(present: Set<string>): Promise<void> {
    const missing = await this.manifest.missing(present);
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
    const parts = [...(this.wal ? [describeOpenReport(this.wal)] : []), ...(this.lost.length > 0 ? [`programs lost: ${named(this.lost)}`] : [])];
    return parts.length > 0 ? parts.join('; ') : null;
  }
}

const named = (programs: [string, string][]) => programs.map(([id, name]) => `'${name}' (${id})`).join(', ');
