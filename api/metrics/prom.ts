/** prom-client's module: imported on the first /metrics scrape, handed to every metric source. */
export type PromClient = typeof import('prom-client');

/** prom-client's Registry.PROMETHEUS_CONTENT_TYPE (text format 0.0.4), known before it loads. */
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';
