/**
 * A PM2 dump (`~/.pm2/dump.pm2`, written by `pm2 save`) holds one entry per running process: its
 * `pm2_env`, which mixes configuration, runtime state and the whole environment PM2 was started
 * with. This puts each app back into ecosystem shape, so one mapper serves both.
 */

/** Dump keys and the ecosystem option each one is. */
const RENAMED: Record<string, string> = {
  pm_exec_path: 'script',
  pm_cwd: 'cwd',
  exec_interpreter: 'interpreter',
  pm_out_log_path: 'out_file',
  pm_err_log_path: 'error_file',
  pm_log_path: 'log_file',
};

/** The dump key of an ecosystem option (for line numbers). */
export function dumpKey(key: string): string {
  return Object.entries(RENAMED).find(([, eco]) => eco === key)?.[0] ?? key;
}

/** Runtime state PM2 records next to the configuration: not configuration, reported once. */
const RUNTIME = new Set([
  'status', 'pm_id', 'unique_id', 'pm_uptime', 'created_at', 'restart_time', 'unstable_restarts', 'exit_code',
  'axm_actions', 'axm_monitor', 'axm_options', 'axm_dynamic', 'versioning', 'version', 'node_version', 'vizion_running',
  'km_link', 'prev_restart_delay', 'pm_pid_path', 'username', '_pm2_version', 'NODE_APP_INSTANCE', 'instances', 'env', 'name',
]);

/** Variables PM2 sets in each process for itself; they are not the app's environment. */
const PM2_VARIABLES = new Set(['PM2_HOME', 'PM2_USAGE', 'PM2_JSON_PROCESSING', 'PM2_INTERACTOR_PROCESSING', 'PM2_DISCRETE_MODE', 'pm_id', 'unique_id', 'NODE_APP_INSTANCE', 'PM2_PROGRAMMATIC', 'PM2_WORKER_THREAD']);

export interface DumpApp {
  /** The app in ecosystem shape. */
  app: Record<string, unknown>;
  /** Index of its first entry in the dump (for line numbers). */
  index: number;
  /** Runtime-state keys that were present (for one report entry). */
  runtime: string[];
  /** PM2's own variables removed from env (for one report entry). */
  pm2Variables: string[];
}

/** Groups the dump's entries by app name (one entry per instance) and reshapes each app. */
export function appsFromDump(entries: unknown[]): DumpApp[] {
  const byName = new Map<string, { first: Record<string, unknown>; index: number; count: number }>();
  entries.forEach((entry, index) => {
    const e = entry as Record<string, unknown>;
    const name = typeof e.name === 'string' ? e.name : `app-${index}`;
    const seen = byName.get(name);
    if (seen) seen.count++;
    else byName.set(name, { first: e, index, count: 1 });
  });
  return [...byName.entries()].map(([name, { first, index, count }]) => {
    const env = (typeof first.env === 'object' && first.env !== null ? first.env : {}) as Record<string, unknown>;
    const app: Record<string, unknown> = { name };
    const runtime: string[] = [];
    for (const [key, value] of Object.entries(first)) {
      if (RUNTIME.has(key)) {
        if (key !== 'env' && key !== 'name' && key !== 'instances') runtime.push(key);
        continue;
      }
      // pm2_env repeats every environment variable at its top level.
      if (key in env && env[key] === value) continue;
      if (key === 'exec_mode') app.exec_mode = value === 'cluster_mode' ? 'cluster' : 'fork';
      else app[RENAMED[key] ?? key] = value;
    }
    const pm2Variables: string[] = [];
    const appEnv: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(env)) {
      if (PM2_VARIABLES.has(key) || (key === name && typeof value === 'object')) pm2Variables.push(key);
      else appEnv[key] = value;
    }
    app.env = appEnv;
    if (count > 1) app.instances = count;
    return { app, index, runtime, pm2Variables };
  });
}
