import { readdirSync, readFileSync } from 'node:fs';

/** A live session leader started by an svcd of one SVC_ROOT, and the program it belongs to. */
export interface SvcProcess {
  pid: number;
  programId: string;
  role: 'program' | 'cron' | 'hook' | 'probe';
}

/**
 * Every live process that an svcd with this SVC_ROOT started, from /proc: what a user would count
 * with `ps` after a crash. Only session leaders count (each program is its own session).
 */
export function svcProcesses(root: string): SvcProcess[] {
  const found: SvcProcess[] = [];
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z' || Number(fields[3]) !== pid) continue; // zombie, or not a session leader
      const env = new Map(readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
      if (env.get('SVC_ROOT') !== root || !env.get('SVC_PROGRAM_ID')) continue;
      const role = env.has('SVC_HOOK') ? 'hook' : env.has('SVC_PROBE') ? 'probe' : env.has('SVC_CRON_SLOT') ? 'cron' : 'program';
      found.push({ pid, programId: env.get('SVC_PROGRAM_ID')!, role });
    } catch {
      // the process ended while we looked
    }
  }
  return found;
}

/** SIGKILLs every process group an svcd of this root started (test cleanup). */
export function killSvcProcesses(root: string): void {
  for (const p of svcProcesses(root)) {
    try {
      process.kill(-p.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}
