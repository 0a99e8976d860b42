/** What a probe reports: success or the reason it failed. */
export interface ProbeOutcome {
  ok: boolean;
  message: string;
}

export interface ExecProbeSpec {
  file: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /** The program's identity (its user, group and that user's groups), as the program runs. */
  uid?: number;
  gid?: number;
  groups?: number[];
}

/**
 * Network and command probes, behind a port so the health controller is tested without
 * sockets. Every call resolves (never rejects) within its timeout, and at once when `abort`
 * fires (the result is no longer wanted: its socket is closed, its process group killed).
 */
export interface ProbePort {
  tcp(host: string, port: number, timeoutMs: number, abort?: AbortSignal): Promise<ProbeOutcome>;
  /** GET; 2xx and 3xx pass (redirects are not followed). */
  http(url: string, timeoutMs: number, abort?: AbortSignal): Promise<ProbeOutcome>;
  /** Runs a command; exit 0 passes; killed (process group) at the timeout. */
  exec(spec: ExecProbeSpec, timeoutMs: number, abort?: AbortSignal): Promise<ProbeOutcome>;
}
