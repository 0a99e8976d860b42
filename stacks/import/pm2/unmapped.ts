/**
 * PM2 options that svc has no equivalent for, with the reason shown in the report. A value that
 * changes nothing (false, an empty list, PM2's default) is not reported.
 */
export const PM2_UNMAPPED: Record<string, string> = {
  watch: 'svc does not restart programs when files change',
  ignore_watch: 'svc does not restart programs when files change',
  watch_delay: 'svc does not restart programs when files change',
  watch_options: 'svc does not restart programs when files change',
  listen_timeout: 'svc has no ready signal; a health_check (http, tcp or exec) can gate dependants instead',
  wait_ready: 'svc has no ready signal; a health_check (http, tcp or exec) can gate dependants instead',
  shutdown_with_message: 'svc stops programs with SIGTERM, not with an IPC message',
  kill_retry_time: 'svc sends SIGKILL once, stopsecs after SIGTERM',
  log_file: 'svc keeps stdout and stderr in separate files; there is no combined log',
  log_date_format: 'svc does not prefix log lines with a timestamp',
  time: 'svc does not prefix log lines with a timestamp',
  log_type: 'svc writes the program output as it is (no JSON log format)',
  pid_file: 'svc keeps pids in its own state, not in pid files',
  source_map_support: 'a PM2 feature for Node.js stack traces',
  disable_source_map_support: 'a PM2 feature for Node.js stack traces',
  vizion: 'svc does not track versions of the source tree',
  post_update: 'svc does not pull or update source code',
  force: 'svc refuses duplicate names; there is nothing to force',
  automation: 'PM2 Plus monitoring',
  pmx: 'PM2 Plus monitoring',
  deep_monitoring: 'PM2 Plus monitoring',
  trace: 'PM2 Plus monitoring',
  disable_trace: 'PM2 Plus monitoring',
  filter_env: 'svc passes svcd’s environment to every program; it cannot filter it per program',
  append_env_to_name: 'svc names do not carry the environment name',
  appendEnvToName: 'svc names do not carry the environment name',
  windowsHide: 'Windows only',
  port: 'pm2 serve is not a program option in svc',
  treekill: 'svc always signals the whole process group of a program',
};

/** Values that mean "PM2's default behaviour", which is also svc's: nothing to report. */
export function isNeutral(key: string, value: unknown): boolean {
  if (key === 'treekill') return value !== false;
  if (value === undefined || value === null || value === false) return true;
  if (Array.isArray(value) && value.length === 0) return true;
  if (typeof value === 'object' && Object.keys(value).length === 0) return true;
  // PM2's defaults (a dump writes every one of them): they never mattered to the app.
  if (value === true && ['vizion', 'automation', 'pmx', 'windowsHide', 'source_map_support'].includes(key)) return true;
  if (key === 'kill_retry_time' && value === 100) return true;
  return false;
}
