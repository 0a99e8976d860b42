/**
 * The finite set of program statuses (docs/states.md has the diagram).
 * - Stopped: not running, by request or never started.
 * - Starting: asked to run, waiting for dependencies to be up.
 * - Running: the process is alive (a passing health probe makes it Healthy).
 * - Healthy / Unhealthy: alive, with an enabled health check passing / past its failure threshold.
 * - Backoff: exited unexpectedly; waiting for the next retry time.
 * - Stopping: a stop signal was sent; waiting for the exit (SIGKILL after stopsecs).
 * - Exited: ended and, by policy, not restarted (autorestart false, or an expected exit code).
 * - Fatal: retry_limit reached; only a manual start revives it.
 * - Scheduled: a cron program whose schedule is active with no run in flight (cron controller;
 *   with runs in flight it is Running, while they are being stopped Stopping).
 */
export const PROGRAM_STATUSES = ['Stopped', 'Starting', 'Running', 'Healthy', 'Unhealthy', 'Backoff', 'Stopping', 'Exited', 'Fatal', 'Scheduled'] as const;
export type ProgramStatus = (typeof PROGRAM_STATUSES)[number];

/** Statuses with a live process that can receive signals. */
export const ALIVE: ReadonlySet<ProgramStatus> = new Set(['Running', 'Healthy', 'Unhealthy', 'Stopping']);
