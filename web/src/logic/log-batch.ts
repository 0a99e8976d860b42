import type { LogLine } from '../api/types.js';

/**
 * Lines as they arrive, handed on together at most once per tick of `schedule`: a program
 * writing thousands of lines a second arrives one WebSocket message per line, and drawing the
 * view for each would keep the page busy until it stops answering clicks. A replacing batch
 * (a fresh tail) drops what was waiting. At most `cap` lines wait (the view keeps no more).
 */
export class LogBatch {
  private pending: LogLine[] = [];
  private replace = false;
  private scheduled = false;

  constructor(
    private readonly flush: (lines: LogLine[], replace: boolean) => void,
    private readonly schedule: (run: () => void) => void,
    private readonly cap: number,
  ) {}

  push(lines: readonly LogLine[], replace: boolean): void {
    if (replace) {
      this.pending = [...lines];
      this.replace = true;
    } else {
      for (const l of lines) this.pending.push(l);
    }
    if (this.pending.length > this.cap) this.pending = this.pending.slice(this.pending.length - this.cap);
    if (this.scheduled) return;
    this.scheduled = true;
    this.schedule(() => this.run());
  }

  private run(): void {
    const { pending, replace } = this;
    this.pending = [];
    this.replace = false;
    this.scheduled = false;
    if (pending.length > 0 || replace) this.flush(pending, replace);
  }
}
