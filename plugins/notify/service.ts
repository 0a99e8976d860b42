import { hostname } from 'node:os';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { settlesWithin, type Clock } from '../../reconciler/clock.js';
import { writeFileAtomic } from '../../state/atomic-file.js';
import type { EventRecord, EventSink } from '../../state/events/types.js';
import { loadNotifyFile, renderNotifyToml } from './config/load.js';
import { DEFAULT_DELIVERY, DEFAULT_SUPPRESSION, type Channel, type NotifyConfig } from './config/types.js';
import { Deliverer, type DeliveryJob, type PostFn } from './delivery/deliverer.js';
import { messageOf } from './delivery/payload.js';
import type { DeliveryResult } from './delivery/send.js';
import { SuppressionEngine } from './engine/engine.js';
import { noSuppressed } from './engine/notice.js';
import type { SuppressionKernel } from './native.js';

export interface NotifyLog {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
}

export interface NotifyDeps {
  /** conf/notify.toml */
  file: string;
  kernel: SuppressionKernel;
  clock: Clock;
  /** Where notify_sent and notify_failed go (the daemon's event bus). */
  events: EventSink;
  log: NotifyLog;
  host?: string;
  post?: PostFn;
}

/** The state of the configuration: what is in force and why an edit was not applied. */
export interface ConfigState {
  config: NotifyConfig;
  /** Unix ms when the configuration in force was loaded. */
  loaded_at: number;
  /** The last load's problem (file:line: key: why); null when the file in force is the file on disk. */
  error: { message: string; at: number } | null;
}

/**
 * The notify plugin at run time: events in (from the bus), the suppression engine deciding,
 * the deliverer sending; the file in force, reloads and replacements. Nothing here blocks the
 * event producer: `onEvent` only updates memory and queues.
 */
export class NotifyService {
  readonly engine: SuppressionEngine;
  readonly deliverer: Deliverer;
  readonly host: string;
  private state: ConfigState;
  private cancelTimer: (() => void) | null = null;
  private closed = false;

  constructor(private readonly deps: NotifyDeps) {
    this.host = deps.host ?? hostname();
    this.engine = new SuppressionEngine(deps.kernel);
    const empty: NotifyConfig = { suppression: DEFAULT_SUPPRESSION, delivery: DEFAULT_DELIVERY, channels: [] };
    this.state = { config: empty, loaded_at: deps.clock.now(), error: null };
    this.deliverer = new Deliverer(DEFAULT_DELIVERY, {
      clock: deps.clock,
      post: deps.post,
      onResult: (job, result) => this.recordResult(job, result, false),
      onDropped: (job) => this.recordDropped(job),
      current: (name) => this.state.config.channels.find((c) => c.name === name) ?? null,
    });
  }

  get file(): string {
    return this.deps.file;
  }

  configState(): ConfigState {
    return this.state;
  }

  /** Reads the file again: a good file replaces the channels; a bad one keeps them and says why. */
  reload(): boolean {
    const now = this.deps.clock.now();
    try {
      this.apply(loadNotifyFile(this.deps.file), now);
      return true;
    } catch (err) {
      const message = (err as Error).message;
      if (this.state.error?.message !== message) this.deps.log.warn('notify: configuration not applied; the last good channels stay in force', { file: this.deps.file, error: message });
      this.state = { ...this.state, error: { message, at: now } };
      return false;
    }
  }

  /** PUT: writes the checked configuration atomically to the file, then loads it. */
  async replace(config: NotifyConfig): Promise<void> {
    mkdirSync(dirname(this.deps.file), { recursive: true });
    await writeFileAtomic(this.deps.file, renderNotifyToml(config), 0o600);
    if (!this.reload()) throw new Error(`notify: the written file did not load: ${this.state.error?.message}`);
  }

  onEvent(record: EventRecord): void {
    if (this.closed) return;
    this.engine.observe(record, this.deps.clock.now());
    this.pump();
  }

  /** svcd started stopping its programs (inhibit_exits_on_shutdown). */
  shutdownBegun(): void {
    this.engine.shutdownBegun();
  }

  /** POST /system/notify/test: one attempt to one channel (enabled or not), outside the queue and the rate limit. */
  async test(name: string): Promise<DeliveryResult | null> {
    const channel = this.state.config.channels.find((c) => c.name === name);
    if (!channel) return null;
    const now = this.deps.clock.now();
    const notice = { channel: name, kind: 'event' as const, severity: 'info' as const, event: null, program_id: null, program_name: null, count: 0, first_ts_ms: now, last_ts_ms: now, record: null, folded: {}, suppressed: noSuppressed() };
    const job = { channel, message: messageOf(notice, this.host, 'test') };
    const result = await this.deliverer.deliverNow(job, 0);
    this.recordResult(job, result, true);
    return result;
  }

  /**
   * Stops the plugin. With `drainMs` (svcd stopping): every open group is closed now (a
   * process_fatal still inside its group window, the system_shutdown record) and the queue gets
   * up to `drainMs` to be delivered and recorded; then what is still queued or in flight is cut
   * off, and that is logged.
   */
  async close(drainMs = 0): Promise<void> {
    if (this.closed) return;
    if (drainMs > 0) await this.drain(drainMs);
    this.closed = true;
    this.cancelTimer?.();
    const left = { queued: this.deliverer.queued(), in_flight: this.deliverer.busy() };
    await this.deliverer.close();
    if (left.queued + left.in_flight > 0) this.deps.log.warn('notify: messages not delivered at shutdown (cut off; no notify_failed recorded)', { ...left, drain_ms: drainMs });
  }

  private async drain(boundMs: number): Promise<void> {
    const now = this.deps.clock.now();
    const byName = new Map(this.state.config.channels.map((c) => [c.name, c]));
    for (const notice of this.engine.flush(now, true)) {
      const channel = byName.get(notice.channel);
      if (channel) this.deliverer.enqueue({ channel, message: messageOf(notice, this.host) });
    }
    await settlesWithin(this.deps.clock, boundMs, this.deliverer.idle());
  }

  private apply(config: NotifyConfig, now: number): void {
    const before = this.state.config.channels.map((c) => c.name).join(',');
    this.engine.configure(config.channels, now);
    this.deliverer.configure(config.delivery);
    this.state = { config, loaded_at: now, error: null };
    this.deps.log.info('notify: channels loaded', { file: this.deps.file, channels: config.channels.length, enabled: config.channels.filter((c) => c.enabled).length, changed: before !== config.channels.map((c) => c.name).join(',') });
    this.pump();
  }

  private pump(): void {
    if (this.closed) return;
    const now = this.deps.clock.now();
    const byName = new Map(this.state.config.channels.map((c) => [c.name, c]));
    for (const notice of this.engine.flush(now)) {
      const channel = byName.get(notice.channel);
      if (channel) this.deliverer.enqueue({ channel, message: messageOf(notice, this.host) });
    }
    this.cancelTimer?.();
    this.cancelTimer = null;
    const due = this.engine.nextDueAt(now);
    if (due !== null) this.cancelTimer = this.deps.clock.setTimer(due - now, () => this.pump());
  }

  private recordResult(job: DeliveryJob, result: DeliveryResult, test: boolean): void {
    if (this.closed) return; // cut off by shutdown: the history is closing too
    const n = job.message.notice;
    const what = `${test ? 'test message' : 'message'} to channel ${job.channel.name}`;
    const how = `${result.status === null ? 'no answer' : `HTTP ${result.status}`}, ${result.attempts} ${result.attempts === 1 ? 'attempt' : 'attempts'}`;
    this.deps.events.emit({
      event: result.ok ? 'notify_sent' : 'notify_failed',
      program_id: n.program_id,
      program_name: n.program_name,
      msg: result.ok ? `${what} delivered (${how}): ${job.message.line}` : `${what} failed (${how}): ${result.error ?? 'unknown error'}`,
    });
  }

  private recordDropped(job: DeliveryJob): void {
    if (this.closed) return;
    const n = job.message.notice;
    this.deps.events.emit({ event: 'notify_failed', program_id: n.program_id, program_name: n.program_name, msg: `message to channel ${job.channel.name} dropped: the delivery queue is full (${this.state.config.delivery.queue_size})` });
  }

  channels(): Channel[] {
    return this.state.config.channels;
  }
}
