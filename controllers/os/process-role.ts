import type { ProcessRole } from './port.js';

/**
 * The marks svc leaves in the environment of every process it starts (buildSpawnSpec and its
 * callers), read back at start-up to find processes a crashed daemon left behind.
 */
export function roleOf(env: Record<string, string | undefined>, root: string): { programId: string; role: ProcessRole; cronSlot?: string } | null {
  if (env.SVC_ROOT !== root) return null;
  const programId = env.SVC_PROGRAM_ID;
  // A reaction run (controllers/reactions) is a side process like a hook: never adopted, ended
  // at start-up. A run for a system event (system_startup, system_shutdown) has no program.
  if (env.SVC_REACTION) return { programId: programId ?? '', role: 'hook' };
  if (!programId) return null;
  if (env.SVC_HOOK) return { programId, role: 'hook' };
  if (env.SVC_PROBE) return { programId, role: 'probe' };
  if (env.SVC_CRON_SLOT) return { programId, role: 'cron', cronSlot: env.SVC_CRON_SLOT };
  return { programId, role: 'program' };
}

/** Parses /proc/<pid>/environ (NUL-separated KEY=VALUE). */
export function parseEnviron(raw: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const entry of raw.split('\0')) {
    const eq = entry.indexOf('=');
    if (eq > 0) env[entry.slice(0, eq)] = entry.slice(eq + 1);
  }
  return env;
}
