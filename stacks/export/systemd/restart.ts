import { withDefaults, type ProgramConfig } from '../../../state/program.js';
import type { ExportFinding } from '../types.js';
import type { UnitLine } from './unit-file.js';

/**
 * svc's restart policy as systemd directives:
 * - autorestart `true` → `Restart=always`; `false` → `Restart=no`; `unexpected` →
 *   `Restart=on-failure` with `SuccessExitStatus=` for the other codes of `exitcodes`, and
 *   `RestartForceExitStatus=0` when 0 is not among them (svc then restarts on exit 0 too);
 * - `backoff_secs` → `RestartSec=` (systemd 252 has no exponential backoff: the first delay);
 * - `retry_limit` → `StartLimitBurst=retry_limit+1` within `StartLimitIntervalSec=` (retries+1) ×
 *   (startsecs + backoff cap): a program that keeps failing before it is stable reaches the
 *   limit as it reaches Fatal in svc; the window is an approximation of svc's startsecs reset.
 * Returns the [Unit] and [Service] lines.
 */
export function restartDirectives(config: ProgramConfig, report: (f: ExportFinding) => void): { unit: UnitLine[]; service: UnitLine[] } {
  const c = withDefaults(config);
  const service: UnitLine[] = [];
  const unit: UnitLine[] = [];
  const exitcodes = [...new Set(c.exitcodes)];
  switch (c.autorestart) {
    case 'true':
      service.push(['Restart', 'always']);
      break;
    case 'false':
      service.push(['Restart', 'no']);
      break;
    case 'unexpected':
      service.push(['Restart', 'on-failure']);
      if (exitcodes.some((code) => code !== 0)) service.push(['SuccessExitStatus', exitcodes.filter((code) => code !== 0).join(' ')]);
      if (!exitcodes.includes(0)) service.push(['RestartForceExitStatus', '0']);
      break;
  }
  if (c.autorestart !== 'false') {
    service.push(['RestartSec', seconds(c.backoff_secs)]);
    if (config.backoff_max_secs !== undefined && config.backoff_max_secs !== c.backoff_secs) {
      report({ program: c.name, field: 'backoff_max_secs', kind: 'approximated', message: `systemd 252 restarts after a fixed RestartSec=${seconds(c.backoff_secs)}; svc doubles the delay up to ${c.backoff_max_secs} s (systemd 254+ has RestartSteps=/RestartMaxDelaySec=)` });
    }
  }
  if (config.retry_limit !== undefined && c.autorestart !== 'false') {
    const longestDelay = c.backoff_secs === 0 ? 0 : Math.max(c.backoff_secs, c.backoff_max_secs);
    const window = (config.retry_limit + 1) * (c.startsecs + longestDelay);
    unit.push(['StartLimitIntervalSec', `${Math.max(1, Math.ceil(window))}s`]);
    unit.push(['StartLimitBurst', String(config.retry_limit + 1)]);
    report({ program: c.name, field: 'retry_limit', kind: 'approximated', message: `StartLimitBurst=${config.retry_limit + 1} starts within ${Math.ceil(window)} s, then the unit fails; svc counts retries until a run lasts startsecs (${c.startsecs} s)` });
  } else if (c.autorestart !== 'false') {
    // svc retries without end; systemd's default start limit (5 in 10 s) would give up.
    unit.push(['StartLimitIntervalSec', '0']);
  }
  return { unit, service };
}

export function seconds(value: number): string {
  return `${Number.isInteger(value) ? value : Number(value.toFixed(3))}s`;
}
