import type { EventType } from '../../../state/events/types.js';

/** How a message is shaped for the receiver (docs/notify.md, Payloads). */
export const CHANNEL_KINDS = ['slack', 'discord', 'teams', 'custom'] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

export const SEVERITIES = ['info', 'warning', 'critical'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** Storm suppression parameters; `[suppression]` sets them for all channels, a channel may override each. */
export interface Suppression {
  /** Token bucket refill: messages a minute a channel may send in a storm. Default 6. */
  rate_per_minute: number;
  /** Token bucket size: messages sent at once before the rate applies. Default 3. */
  burst: number;
  /** Repeats of one (program, event type) inside this window become one message with a count. Default 10. */
  group_window_secs: number;
  /** A program's process_fatal drops its pending and later process_backoff messages. Default true. */
  inhibit_backoff_after_fatal: boolean;
  /** While svcd shuts down, program exits, backoffs and fatals are not sent. Default true. */
  inhibit_exits_on_shutdown: boolean;
}

/** How messages leave svcd. */
export interface Delivery {
  /** Per attempt: connect, headers and body. Default 5. */
  timeout_secs: number;
  /** Further attempts after a 5xx, 429 or network error (never after another 4xx). Default 3. */
  retries: number;
  /** First retry delay; doubles each time. Default 1000. */
  retry_backoff_ms: number;
  /** Messages waiting for delivery; beyond it new ones are dropped and counted. Default 256. */
  queue_size: number;
  /** Deliveries in flight at once, all channels together. Default 4. */
  concurrency: number;
}

export interface Channel {
  name: string;
  kind: ChannelKind;
  url: string;
  /** Event types sent; empty: every type. */
  events: EventType[];
  /** Program names or globs; empty: every program (and daemon events). */
  programs: string[];
  min_severity: Severity;
  enabled: boolean;
  /** Extra HTTP headers (for example an Authorization for a custom receiver). */
  headers: Record<string, string>;
  suppression: Suppression;
}

export interface NotifyConfig {
  suppression: Suppression;
  delivery: Delivery;
  channels: Channel[];
}

export const DEFAULT_SUPPRESSION: Suppression = {
  rate_per_minute: 6,
  burst: 3,
  group_window_secs: 10,
  inhibit_backoff_after_fatal: true,
  inhibit_exits_on_shutdown: true,
};

export const DEFAULT_DELIVERY: Delivery = { timeout_secs: 5, retries: 3, retry_backoff_ms: 1000, queue_size: 256, concurrency: 4 };
