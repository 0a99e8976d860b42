import type { Counter, Registry } from 'prom-client';
import type { PromClient } from '../../api/metrics/prom.js';
import type { RegistrySource } from '../../api/metrics/metrics.js';
import type { NotifyService } from './service.js';

type Row = Record<string, number>;

/** The notify plugin's metric families (docs/observability.md), read at scrape time. */
export function notifyMetrics(service: NotifyService): RegistrySource {
  const rows = (): [string, Row][] => {
    const engine = service.engine.counters();
    return service.channels().map((c) => {
      const e = engine.get(c.name);
      const d = service.deliverer.stats(c.name);
      return [c.name, { matched: e?.matched ?? 0, grouped: e?.grouped ?? 0, inhibited: e?.inhibited ?? 0, rate_limited: e?.rate_limited ?? 0, notices: e?.notices ?? 0, delivered: d.delivered, failed: d.failed, dropped: d.dropped, retries: d.retries }];
    });
  };
  const counter = (prom: PromClient, registry: Registry, name: string, help: string, labels: string[], fill: (c: Counter<string>) => void) =>
    new prom.Counter({ name, help, labelNames: labels, registers: [registry], collect() { this.reset(); fill(this); } });
  return {
    install(registry, prom) {
      counter(prom, registry, 'svc_notify_events_total', 'Events a notify channel matched', ['channel'], (m) => {
        for (const [channel, r] of rows()) m.inc({ channel }, r.matched ?? 0);
      });
      counter(prom, registry, 'svc_notify_suppressed_total', 'Events or messages held back by storm suppression, by reason (grouped, inhibited: events; rate_limited: messages)', ['channel', 'reason'], (m) => {
        for (const [channel, r] of rows()) for (const reason of ['grouped', 'inhibited', 'rate_limited']) m.inc({ channel, reason }, r[reason] ?? 0);
      });
      counter(prom, registry, 'svc_notify_messages_total', 'Messages decided for a channel (after suppression)', ['channel'], (m) => {
        for (const [channel, r] of rows()) m.inc({ channel }, r.notices ?? 0);
      });
      counter(prom, registry, 'svc_notify_deliveries_total', 'Message deliveries by outcome (delivered, failed after retries, dropped on a full queue)', ['channel', 'outcome'], (m) => {
        for (const [channel, r] of rows()) for (const outcome of ['delivered', 'failed', 'dropped']) m.inc({ channel, outcome }, r[outcome] ?? 0);
      });
      counter(prom, registry, 'svc_notify_retries_total', 'Delivery attempts after the first (5xx, 429 or network errors)', ['channel'], (m) => {
        for (const [channel, r] of rows()) m.inc({ channel }, r.retries ?? 0);
      });
      new prom.Gauge({ name: 'svc_notify_queue_depth', help: 'Messages waiting for delivery', registers: [registry], collect() { this.set(service.deliverer.queued()); } });
      new prom.Gauge({ name: 'svc_notify_config_error', help: '1 when the last load of conf/notify.toml failed (the last good channels stay in force)', registers: [registry], collect() { this.set(service.configState().error ? 1 : 0); } });
    },
  };
}
