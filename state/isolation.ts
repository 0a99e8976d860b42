/**
 * Whether a program's resource_limits are enforced (isolation controller; docs/isolation.md).
 * Present in the observed state of programs with resource_limits only.
 */
export interface IsolationView {
  /** A cgroup with the limits holds the program's live process(es) now. */
  enforced: boolean;
  /** Why limits are not enforced ("isolation plugin not loaded", "no cgroup v2 at ..."); null when enforced or simply not running. */
  reason: string | null;
  /** The program's cgroup directory while it exists. */
  cgroup: string | null;
  /** memory_oom_kill events seen since svcd started. */
  oom_kills: number;
}

/** The line `svc info` and the detail show: "enforced (...)" or "limits not enforced: <reason>". */
export function describeIsolation(v: IsolationView): string {
  if (v.enforced) return `enforced (cgroup ${v.cgroup ?? '?'})`;
  if (v.reason) return `limits not enforced: ${v.reason}`;
  return 'not applied while the program is not running';
}
