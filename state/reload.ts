/**
 * A reload (`svc reload`, docs/reload.md): a restart without downtime for a program with a
 * health check. The process controller starts a second process beside the live one (the
 * successor), waits until the health controller judges it Healthy, makes it the program's
 * process and stops the old one; if it is not Healthy in time, it stops the successor and the
 * old process keeps running. Desired state is the intent's `reload_seq`; what follows is
 * observed state, published by the process controller (`reload`, `last_reload`) and by the
 * health controller (`successor_health`).
 */

/** The second process of a program during a reload, as views show it. */
export interface ReloadView {
  /** successor: started, waiting for Healthy; retiring: the old process, being stopped after the successor took over; aborting: a successor that failed, being stopped. */
  phase: 'successor' | 'retiring' | 'aborting';
  pid: number;
  /** Unix ms the second process started. */
  started_at: number;
  /** Unix ms: the successor must be Healthy by then (phase successor); SIGKILL after it (retiring, aborting). */
  deadline: number;
  /** The whole bound of the successor phase in ms (lets a request wait long enough). */
  timeout_ms: number;
}

/** How the last reload request ended. */
export interface ReloadOutcome {
  /** The intent's reload_seq it answers. */
  seq: number;
  /** reloaded: the new process took over; failed: the old one keeps running; restarted: no health check, a plain restart; started: nothing was running, so it was started. */
  result: 'reloaded' | 'failed' | 'restarted' | 'started';
  msg: string;
  /** Unix ms. */
  at: number;
}

/** Exactly how a health check's numbers bound a reload (docs/reload.md); the effective values, defaults applied. */
export interface ReloadTiming {
  start_period_secs: number;
  interval_secs: number;
  timeout_secs: number;
  failure_threshold: number;
  success_threshold: number;
}

/**
 * How long a successor may take to become Healthy: its start period, then enough probes for the
 * check to pass (success_threshold) or to fail for good (failure_threshold), each allowed a full
 * interval plus its own timeout. Before that bound, a verdict of Unhealthy (failure_threshold
 * failed probes after the start period) or an exit ends the reload at once.
 */
export function reloadTimeoutMs(t: ReloadTiming): number {
  const probes = t.failure_threshold + t.success_threshold;
  return Math.round((t.start_period_secs + probes * (t.interval_secs + t.timeout_secs)) * 1000);
}

/** The message the CLI prints for a program reloaded without a health check. */
export const NO_HEALTH_CHECK_NOTE = 'no health check: restarted, with downtime';
