import type { AuditEntry } from './chain.js';

/** Anonymous refusals written one by one per minute; the rest are counted into one record. */
export const ANONYMOUS_REFUSALS_PER_MINUTE = 30;
const MINUTE_MS = 60_000;

interface Suppressed {
  count: number;
  first: number;
  last: number;
}

/**
 * What the audit middleware records, on top of the log's storage (audit-log.ts):
 *
 * - **Fail closed.** When a record cannot be written (disk full, I/O error), the log is failing:
 *   every later state-changing request first tries to write an `audit/resumed` record, and is
 *   refused with 503 while that fails. The one request whose own record failed was already
 *   applied; every change after it is either recorded or refused.
 * - **Anonymous refusals are bounded.** A request with no valid credential that got 401 is
 *   recorded like any other, up to 30 a minute; the rest of that minute are counted into one
 *   `audit/anonymous-refusals-suppressed` record, written before the next record (or at
 *   shutdown). An unauthenticated client can no longer grow the log, and fsync it, at will.
 */
export class AuditRecorder {
  private failure: string | null = null;
  private minuteStart = -Infinity;
  private writtenThisMinute = 0;
  private suppressed: Suppressed | null = null;

  constructor(
    private readonly log: { append(entry: AuditEntry): Promise<void> },
    private readonly now: () => number,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Why state changes are refused now, or null when the log can be written. */
  async refusal(): Promise<string | null> {
    if (this.failure === null) return null;
    const after = this.failure;
    if (await this.write({ ts: this.now(), actor: { kind: 'svcd' }, method: 'SVCD', path: 'audit/resumed', status: 0, detail: { after } })) return null;
    return `the audit log cannot be written (${this.failure}): state changes are refused until it can; reads still work`;
  }

  /** Records a finished request. */
  async record(entry: AuditEntry): Promise<void> {
    if (entry.status === 401 && entry.actor.kind === 'anonymous' && !this.admitAnonymousRefusal(entry.ts)) return;
    await this.flushSuppressed();
    await this.write(entry);
  }

  /** At shutdown: the count of refusals not yet written. */
  async close(): Promise<void> {
    await this.flushSuppressed();
  }

  private admitAnonymousRefusal(ts: number): boolean {
    if (ts - this.minuteStart >= MINUTE_MS) {
      this.minuteStart = ts;
      this.writtenThisMinute = 0;
    }
    if (this.writtenThisMinute < ANONYMOUS_REFUSALS_PER_MINUTE) {
      this.writtenThisMinute += 1;
      return true;
    }
    const suppressed = (this.suppressed ??= { count: 0, first: ts, last: ts });
    suppressed.last = ts;
    suppressed.count += 1;
    return false;
  }

  private async flushSuppressed(): Promise<void> {
    const s = this.suppressed;
    if (!s) return;
    this.suppressed = null;
    const detail = { count: s.count, first_ts: s.first, last_ts: s.last };
    if (!(await this.write({ ts: this.now(), actor: { kind: 'svcd' }, method: 'SVCD', path: 'audit/anonymous-refusals-suppressed', status: 401, detail }))) {
      this.suppressed = s; // kept for the next attempt
    }
  }

  /** Appends; a failure marks the log failing (and is reported), a success clears it. */
  private async write(entry: AuditEntry): Promise<boolean> {
    try {
      await this.log.append(entry);
      this.failure = null;
      return true;
    } catch (err) {
      this.failure = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
      this.onError(err);
      return false;
    }
  }
}
