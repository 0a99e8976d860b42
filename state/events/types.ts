/** Every event type the daemon records (spec, Events). docs/events.md says what emits each. */
export const EVENT_TYPES = [
  'process_started',
  'process_exit',
  'process_backoff',
  'process_fatal',
  'process_recovered',
  /** svc addition (docs/events.md): a stop request cancelled a Backoff retry or a start still waiting. */
  'start_cancelled',
  /** svc addition (docs/events.md): a program turned Unhealthy; process_recovered is its end. */
  'process_unhealthy',
  'health_restart',
  /** svc additions (docs/reload.md): a reload started its new process, handed over to it, or kept the old one. */
  'reload_started',
  'reload_succeeded',
  'reload_failed',
  'cron_started',
  'cron_exit',
  'cron_spawn_failed',
  /** svc addition: a firing that did not run (on_overlap = skip at max_concurrent); docs/events.md. */
  'cron_skipped',
  'queue_full',
  'system_startup',
  'system_shutdown',
  'memory_pressure',
  'memory_oom_kill',
  'ota_started',
  'ota_swapped',
  'ota_applied',
  'ota_failed',
  'ota_rolled_back',
  /** svc addition (docs/events.md): an update abandoned before its swap (a newer checksum, the artifact removed, a rollback). */
  'ota_cancelled',
  /** svc additions (docs/events.md): a watched stack file or a git source applied, refused, or not fetched. */
  'stack_applied',
  'stack_apply_failed',
  'stack_sync_failed',
  /** Notify plugin: a message reached a webhook channel (docs/notify.md); never sent to channels itself. */
  'notify_sent',
  /** Notify plugin: a message could not be delivered (after its retries) or was dropped. */
  'notify_failed',
  /** svc additions: event reactions (controllers/reactions, docs/reactions.md); never trigger reactions. */
  'reaction_started',
  'reaction_finished',
  'reaction_failed',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** A stored event record, exactly the spec's fields plus a stable id. */
export interface EventRecord {
  id: string;
  ts: number;
  ts_ms: number;
  program_id: string | null;
  program_name: string | null;
  event: EventType;
  exit_code: number | null;
  signal: number | null;
  retry_count: number | null;
  duration_secs: number | null;
  msg: string;
}

/** What a producer hands over; the sink stamps time and id. */
export interface EventInput {
  event: EventType;
  program_id?: string | null;
  program_name?: string | null;
  exit_code?: number | null;
  signal?: number | null;
  retry_count?: number | null;
  duration_secs?: number | null;
  msg: string;
}

/**
 * Where every producer sends events. `emit` never blocks and never throws: a full queue drops
 * the record and counts the drop (spec: process control is never blocked).
 */
export interface EventSink {
  emit(event: EventInput): void;
}
