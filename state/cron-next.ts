/**
 * What the dashboards and `svc info` show for the next firing of a cron program that has none:
 * a paused schedule (Stopped, Stopping), or an active one for which no time ahead matches (a zone
 * whose clock never shows that time, a zone that vanished from tzdata). Both used to read "paused".
 * `status` is the program's (state/status.ts; the web reads it as a plain string).
 */
export function noNextFiring(status: string): string {
  return status === 'Stopped' || status === 'Stopping' ? 'paused' : 'none: no time ahead matches the schedule in its zone';
}
