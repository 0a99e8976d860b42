import type { EventRecord, EventType } from '../../../state/events/types.js';
import type { Channel } from '../config/types.js';
import type { Bucket, SuppressionKernel } from '../native.js';
import { channelWants } from './match.js';
import { noSuppressed, type Notice, type Suppressed } from './notice.js';
import { severityOf } from './severity.js';

/** Counters of one channel since svcd started (metrics and `svc notify status`). */
export interface ChannelCounters {
  /** Events the channel wanted. */
  matched: number;
  /** Events folded into a group that was already open. */
  grouped: number;
  /** Events dropped by an inhibition rule (including groups a fatal folded in). */
  inhibited: number;
  /** Groups (messages) not sent because the rate limit had no token. */
  rate_limited: number;
  /** Messages decided (event and summary). */
  notices: number;
}

interface Group {
  key: string;
  first: EventRecord;
  last: EventRecord;
  count: number;
  closeAt: number;
  folded: Partial<Record<EventType, number>>;
}

interface ChannelState {
  channel: Channel;
  bucket: Bucket;
  groups: Map<string, Group>;
  /** Programs whose process_fatal this channel saw: their backoffs and exits are inhibited until they start again. */
  fatal: Set<string>;
  suppressed: Suppressed;
  counters: ChannelCounters;
}

/** What a fatal inhibits (docs/notify.md, Inhibition). */
const AFTER_FATAL = new Set<EventType>(['process_backoff', 'process_exit']);
/** What a daemon shutdown inhibits. */
const ON_SHUTDOWN = new Set<EventType>(['process_exit', 'process_backoff', 'process_fatal', 'health_restart']);

const programKey = (r: EventRecord) => r.program_id ?? r.program_name ?? '';
const groupKey = (r: EventRecord) => `${programKey(r)}\u0000${r.event}`;

/**
 * The storm-suppression decision, with no I/O and no clock: every call gets `now`. Per channel:
 * matching, grouping of repeats of (program, event type) inside `group_window_secs`, the
 * inhibition rules, and the token bucket (computed by notify.so through the kernel). The
 * service feeds it events, calls `flush` at `nextDueAt`, and delivers the notices.
 */
export class SuppressionEngine {
  private readonly states = new Map<string, ChannelState>();
  private shuttingDown = false;

  constructor(private readonly kernel: SuppressionKernel) {}

  /** Applies a new channel list; a channel that keeps its name keeps its bucket, groups and counters. */
  configure(channels: Channel[], now: number): void {
    const old = new Map(this.states);
    this.states.clear();
    for (const channel of channels) {
      const prev = old.get(channel.name);
      this.states.set(channel.name, prev ? { ...prev, channel } : { channel, bucket: { tokens: channel.suppression.burst, stampMs: now }, groups: new Map(), fatal: new Set(), suppressed: noSuppressed(), counters: zero() });
    }
  }

  /** svcd began stopping every program: their exits are expected (inhibit_exits_on_shutdown). */
  shutdownBegun(): void {
    this.shuttingDown = true;
  }

  observe(record: EventRecord, now: number): void {
    if (record.event === 'system_shutdown') this.shuttingDown = true;
    if (record.event === 'system_startup') this.shuttingDown = false;
    for (const s of this.states.values()) {
      if (record.event === 'process_started') s.fatal.delete(programKey(record));
      if (!channelWants(s.channel, record, this.kernel)) continue;
      s.counters.matched++;
      if (this.inhibited(s, record)) {
        s.counters.inhibited++;
        continue;
      }
      const key = groupKey(record);
      const open = s.groups.get(key);
      const folds = record.event === 'process_fatal' && s.channel.suppression.inhibit_backoff_after_fatal;
      if (open && now < open.closeAt) {
        open.count++;
        open.last = record;
        s.counters.grouped++;
        // A second fatal (started again, crashed again) carries its own crash loop too.
        if (folds) this.foldIntoFatal(s, record, open);
        continue;
      }
      const group: Group = { key, first: record, last: record, count: 1, closeAt: now + s.channel.suppression.group_window_secs * 1000, folded: {} };
      if (folds) this.foldIntoFatal(s, record, group);
      s.groups.set(key, group);
    }
  }

  /**
   * Closes every group whose window ended and decides the messages due at `now`, in order.
   * `closeAll` (svcd is stopping): every open group is due now, its window cut short.
   */
  flush(now: number, closeAll = false): Notice[] {
    const out: Notice[] = [];
    for (const s of this.states.values()) {
      const due = [...s.groups.values()].filter((g) => closeAll || g.closeAt <= now).sort((a, b) => a.closeAt - b.closeAt || a.first.ts_ms - b.first.ts_ms);
      const { rate_per_minute: rate, burst } = s.channel.suppression;
      for (const g of due) {
        s.groups.delete(g.key);
        if (this.kernel.bucketTake(s.bucket, now, rate, burst, true)) {
          out.push(this.notice(s, g));
        } else {
          s.counters.rate_limited++;
          s.suppressed.messages++;
          s.suppressed.events += g.count;
          s.suppressed.by_event[g.first.event] = (s.suppressed.by_event[g.first.event] ?? 0) + g.count;
        }
      }
      // Nothing pending will carry the count: a summary as soon as a token allows it.
      if (s.suppressed.messages > 0 && s.groups.size === 0 && this.kernel.bucketTake(s.bucket, now, rate, burst, true)) out.push(this.summary(s, now));
    }
    return out;
  }

  /** When `flush` next has something to decide: a group's window end or a summary's token; null when idle. */
  nextDueAt(now: number): number | null {
    let next: number | null = null;
    const consider = (t: number) => (next = next === null ? t : Math.min(next, t));
    for (const s of this.states.values()) {
      for (const g of s.groups.values()) consider(g.closeAt);
      if (s.suppressed.messages > 0 && s.groups.size === 0) {
        const { rate_per_minute: rate, burst } = s.channel.suppression;
        const probe = { ...s.bucket };
        this.kernel.bucketTake(probe, now, rate, burst, false);
        consider(now + Math.max(0, Math.ceil(((1 - probe.tokens) * 60_000) / rate)));
      }
    }
    return next;
  }

  counters(): Map<string, ChannelCounters & { pending_groups: number; suppressed_pending: number }> {
    return new Map([...this.states].map(([name, s]) => [name, { ...s.counters, pending_groups: s.groups.size, suppressed_pending: s.suppressed.messages }]));
  }

  private inhibited(s: ChannelState, record: EventRecord): boolean {
    const rules = s.channel.suppression;
    if (this.shuttingDown && rules.inhibit_exits_on_shutdown && ON_SHUTDOWN.has(record.event)) return true;
    return rules.inhibit_backoff_after_fatal && AFTER_FATAL.has(record.event) && s.fatal.has(programKey(record));
  }

  /** process_fatal for a program: its pending backoff and exit groups become part of the fatal's message. */
  private foldIntoFatal(s: ChannelState, record: EventRecord, group: Group): void {
    const program = programKey(record);
    s.fatal.add(program);
    for (const event of AFTER_FATAL) {
      const key = `${program}\u0000${event}`;
      const pending = s.groups.get(key);
      if (!pending) continue;
      s.groups.delete(key);
      group.folded[event] = (group.folded[event] ?? 0) + pending.count;
      s.counters.inhibited += pending.count;
    }
  }

  private notice(s: ChannelState, g: Group): Notice {
    s.counters.notices++;
    const suppressed = s.suppressed;
    s.suppressed = noSuppressed();
    const r = g.last;
    return { channel: s.channel.name, kind: 'event', severity: severityOf(r), event: r.event, program_id: r.program_id, program_name: r.program_name, count: g.count, first_ts_ms: g.first.ts_ms, last_ts_ms: r.ts_ms, record: r, folded: g.folded, suppressed };
  }

  private summary(s: ChannelState, now: number): Notice {
    s.counters.notices++;
    const suppressed = s.suppressed;
    s.suppressed = noSuppressed();
    const severity = Object.keys(suppressed.by_event).map((e) => severityOf({ event: e as EventType, exit_code: 1, signal: null })).sort().includes('critical') ? 'critical' : 'warning';
    return { channel: s.channel.name, kind: 'summary', severity, event: null, program_id: null, program_name: null, count: 0, first_ts_ms: now, last_ts_ms: now, record: null, folded: {}, suppressed };
  }
}

function zero(): ChannelCounters {
  return { matched: 0, grouped: 0, inhibited: 0, rate_limited: 0, notices: 0 };
}
