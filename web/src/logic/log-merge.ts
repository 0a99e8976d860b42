import { TailOverlap } from '../../../tui/client/log-overlap.js';
import type { LogLine } from '../api/types.js';

/**
 * Snapshot then stream without losing or repeating a line. The socket opens first and the tail
 * is fetched after, so lines written in between come on the socket and may be in the tail too;
 * and a line streamed before the tail's answer arrives must not be wiped by it. So streamed
 * lines wait while the tail is on its way; the tail then replaces the view, followed by the
 * waiting lines it did not have, and later lines it showed already are dropped
 * (tui/client/log-overlap.ts, the same rule `svc logs -f` uses).
 */
export class SnapshotThenStream {
  private waiting: LogLine[] | null = null;
  private overlap: TailOverlap | null = null;

  constructor(private readonly show: (lines: LogLine[], replace: boolean) => void) {}

  /** The tail was asked for (the socket is open): streamed lines wait for it. */
  begin(): void {
    this.waiting = [];
    this.overlap = null;
  }

  /** The tail arrived. */
  snapshot(tail: LogLine[]): void {
    const overlap = new TailOverlap(tail);
    const fresh = overlap.early(this.waiting ?? []);
    this.waiting = null;
    this.overlap = overlap;
    this.show([...tail, ...fresh], true);
  }

  /** The tail could not be read: the waiting lines are shown as they are. */
  failed(): void {
    const waiting = this.waiting ?? [];
    this.waiting = null;
    if (waiting.length > 0) this.show(waiting, false);
  }

  streamed(line: LogLine): void {
    if (this.waiting) this.waiting.push(line);
    else if (!this.overlap || this.overlap.keep(line)) this.show([line], false);
  }
}
