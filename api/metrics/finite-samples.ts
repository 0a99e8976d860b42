/**
 * The statistics of prom-client's event-loop delay histogram. It is reset at every scrape, so a
 * scrape that follows another within the sampling interval sees an empty window: mean and stddev
 * NaN, min 2^63 ns, max 0. Those are no measurement; the window is exposed only when it has one.
 */
const LAG_WINDOW = /^svc_nodejs_eventloop_lag_(min|max|mean|stddev|p50|p90|p99)_seconds$/;
const LAG_MEAN = 'svc_nodejs_eventloop_lag_mean_seconds';

/**
 * Drops every sample whose value is not a finite number (NaN, +Inf, -Inf) from a text exposition,
 * and the empty event-loop lag window with it: a gauge has a real value or none. HELP and TYPE
 * lines stay, so every family is still announced.
 */
export function finiteSamples(text: string): string {
  const lines = text.split('\n');
  const finite = (line: string) => Number.isFinite(Number(line.slice(line.lastIndexOf(' ') + 1)));
  const sample = (line: string) => line !== '' && !line.startsWith('#');
  const emptyLagWindow = lines.some((line) => sample(line) && nameOf(line) === LAG_MEAN && !finite(line));
  return lines.filter((line) => !sample(line) || (finite(line) && !(emptyLagWindow && LAG_WINDOW.test(nameOf(line))))).join('\n');
}

/** The metric name of a sample line (`name{labels} value` or `name value`). */
function nameOf(line: string): string {
  const end = line.search(/[{ ]/);
  return end === -1 ? line : line.slice(0, end);
}
