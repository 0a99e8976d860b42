import type { HealthCheck } from '../../../state/program.js';
import { commandFields } from '../common/command.js';
import { show } from '../common/values.js';

type Report = (field: string, kind: 'unmapped' | 'approximated', message: string) => void;

const PROBE_KEYS = new Set(['exec', 'http_get', 'initial_delay_seconds', 'period_seconds', 'timeout_seconds', 'success_threshold', 'failure_threshold']);

/** process-compose's probe defaults that differ from svc's (timeout 1 s, not 5 s). */
const PC_TIMEOUT_SECONDS = 1;

/**
 * A process-compose `readiness_probe`/`liveness_probe` as an svc health_check: `exec.command`
 * (run through the shell, as process-compose runs it) or `http_get` (scheme, host, port, path).
 * `field` is the probe's key, for the report; `text` expands `$VAR` in values svc stores as is.
 */
export function mapProbe(
  probe: unknown,
  field: string,
  shell: readonly string[],
  processDir: string | undefined,
  text: (s: string) => string,
  report: Report,
  fail: (field: string, message: string) => never,
): HealthCheck | null {
  if (typeof probe !== 'object' || probe === null) {
    report(field, 'unmapped', 'must be a mapping');
    return null;
  }
  const p = probe as Record<string, unknown>;
  let check: HealthCheck | null = null;
  const exec = p.exec as Record<string, unknown> | undefined;
  const http = p.http_get as Record<string, unknown> | undefined;
  if (exec && typeof exec.command === 'string') {
    const cmd = commandFields(exec.command, shell);
    check = { type: 'exec', command: cmd.command, ...(cmd.args ? { args: cmd.args } : {}) };
    for (const key of Object.keys(exec)) {
      if (key === 'command') continue;
      if (key === 'working_dir' && (exec.working_dir === processDir || exec.working_dir === undefined)) continue;
      report(`${field}.exec.${key}`, 'unmapped', key === 'working_dir' ? 'svc runs exec checks in the program’s working directory' : 'not a probe option svc knows');
    }
  } else if (http && http.port !== undefined) {
    const scheme = typeof http.scheme === 'string' ? text(http.scheme) : 'http';
    const host = typeof http.host === 'string' ? text(http.host) : '127.0.0.1';
    const path = typeof http.path === 'string' ? text(http.path) : '/';
    check = { type: 'http', url: `${scheme}://${host}:${text(show(http.port))}${path.startsWith('/') ? path : `/${path}`}` };
    for (const key of Object.keys(http)) {
      if (!['scheme', 'host', 'path', 'port'].includes(key)) report(`${field}.http_get.${key}`, 'unmapped', 'svc http checks send a plain GET (no headers or other methods)');
    }
  } else {
    report(field, 'unmapped', 'needs exec.command or http_get.port');
    return null;
  }
  // process-compose refuses a file whose numbers are not numbers ("5"): so does the import, rather than drop them.
  const num = (key: string): number | undefined => {
    const value = p[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return fail(`${field}.${key}`, `must be a number of 0 or more, not ${JSON.stringify(value)}`);
    return value;
  };
  const delay = num('initial_delay_seconds');
  if (delay) check.start_period_secs = delay;
  const period = num('period_seconds');
  if (period) check.interval_secs = period;
  check.timeout_secs = num('timeout_seconds') || PC_TIMEOUT_SECONDS;
  const success = num('success_threshold');
  if (success) check.success_threshold = Math.max(1, Math.round(success));
  const failure = num('failure_threshold');
  if (failure) check.failure_threshold = Math.max(1, Math.round(failure));
  if (delay) report(`${field}.initial_delay_seconds`, 'approximated', 'mapped to start_period_secs: svc probes at once but does not count failures during that time');
  for (const key of Object.keys(p)) if (!PROBE_KEYS.has(key)) report(`${field}.${key}`, 'unmapped', 'not a probe option svc knows');
  return check;
}
