import { withDefaults, type ProgramConfig } from '../../../state/program.js';
import type { ExportFinding } from '../types.js';
import { ns, type NomadTaskGroup } from './model.js';

/** Restarts Nomad allows within the interval for a program without retry_limit (mode "delay"). */
const UNLIMITED_ATTEMPTS = 10;

/**
 * svc's restart policy as Nomad's `restart` (and `reschedule`) blocks:
 * - `autorestart = false` → 0 attempts, mode "fail", no rescheduling: the task stays dead;
 * - `retry_limit` → that many attempts, mode "fail" (svc's Fatal), no rescheduling, within an
 *   interval of (retries+1) × (startsecs + longest delay);
 * - no retry_limit → mode "delay": after 10 quick restarts Nomad waits out the interval, forever;
 * - delay = backoff_secs (Nomad adds up to 25 % jitter; it has no exponential backoff).
 */
export function restartPolicy(config: ProgramConfig, report: (f: ExportFinding) => void): Pick<NomadTaskGroup, 'RestartPolicy' | 'ReschedulePolicy'> {
  const c = withDefaults(config);
  const note = (field: string, kind: ExportFinding['kind'], message: string) => report({ program: c.name, field, kind, message });
  const longest = c.backoff_secs === 0 ? 0 : Math.max(c.backoff_secs, c.backoff_max_secs);
  const delay = ns(c.backoff_secs);
  if (c.autorestart === 'false') {
    return { RestartPolicy: { Attempts: 0, Interval: ns(60), Delay: delay, Mode: 'fail' }, ReschedulePolicy: { Attempts: 0, Unlimited: false } };
  }
  if (c.autorestart === 'unexpected') {
    note('autorestart', 'approximated', `Nomad restarts a service task after any exit; svc would leave it stopped after exit code${c.exitcodes.length === 1 ? '' : 's'} ${c.exitcodes.join(', ')}`);
  }
  if (config.backoff_max_secs !== undefined && config.backoff_max_secs !== c.backoff_secs) {
    note('backoff_max_secs', 'approximated', `Nomad waits a fixed delay of ${c.backoff_secs} s (plus jitter) between restarts; it has no exponential backoff`);
  }
  if (config.retry_limit !== undefined) {
    const interval = ns(Math.max(1, (config.retry_limit + 1) * (c.startsecs + longest)));
    note('retry_limit', 'approximated', `${config.retry_limit} restarts within ${interval / 1e9} s, then the task fails (not rescheduled); svc counts retries until a run lasts startsecs`);
    return { RestartPolicy: { Attempts: config.retry_limit, Interval: interval, Delay: delay, Mode: 'fail' }, ReschedulePolicy: { Attempts: 0, Unlimited: false } };
  }
  const interval = ns(Math.max(60, UNLIMITED_ATTEMPTS * (c.startsecs + longest)));
  return { RestartPolicy: { Attempts: UNLIMITED_ATTEMPTS, Interval: interval, Delay: delay, Mode: 'delay' } };
}
