import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

type ReportLine = { begin?: string; ok?: string; error?: string; name?: string; version?: string; message?: string };

/** The child's report lines; anything else on the pipe is skipped. */
function reportLines(text: string): ReportLine[] {
  const lines: ReportLine[] = [];
  for (const line of text.split('\n')) {
    try {
      const m: unknown = JSON.parse(line);
      if (typeof m === 'object' && m !== null && !Array.isArray(m)) lines.push(m);
    } catch {
      // not a report line
    }
  }
  return lines;
}

/** What loading a library in a separate process showed. */
export type ProbeResult = { file: string; ok: true; name: string; version: string } | { file: string; ok: false; message: string };

const CHILD = fileURLToPath(new URL('./probe-child.js', import.meta.url));
/**
 * Bounds a library that hangs while loading. Generous: the probe is a fresh Node process, and on
 * a heavily loaded host (load 17 on 2 cores) its own start-up took over 10 s and svcd refused to
 * start although no plugin hung.
 */
const TIMEOUT_MS = 60_000;

export interface ProbeOptions {
  /** How long one child may take (default 60 s); tests shorten it. */
  timeoutMs?: number;
}

/**
 * Loads each library in a child process before svcd loads it in its own: a library whose
 * constructor or ABI functions crash (SIGSEGV, abort) kills the child, not the daemon, and is
 * reported by file name. A crash ends the child, so the files after it get a fresh child.
 * Runs once at start-up, before svcd serves anything, so a synchronous spawn blocks nothing.
 */
export function probePlugins(files: string[], opts: ProbeOptions = {}): ProbeResult[] {
  const timeoutMs = opts.timeoutMs ?? TIMEOUT_MS;
  const results: ProbeResult[] = [];
  let rest = [...files];
  while (rest.length > 0) {
    const run = spawnSync(process.execPath, [CHILD, ...rest], {
      encoding: 'utf8',
      timeout: timeoutMs,
      // SIGKILL: a library that ignores SIGTERM while it hangs would keep spawnSync, and svcd, waiting for good.
      killSignal: 'SIGKILL',
      // The child reports on fd 3; what a library prints on stdout while loading is not read.
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    });
    let current: string | null = null;
    for (const m of reportLines(run.output[3] ?? '')) {
      if (m.begin) {
        current = m.begin;
      } else if (m.ok) {
        results.push({ file: m.ok, ok: true, name: m.name ?? '', version: m.version ?? '' });
        current = null;
      } else if (m.error) {
        results.push({ file: m.error, ok: false, message: m.message ?? 'failed to load' });
        current = null;
      }
    }
    const done = new Set(results.map((r) => r.file));
    if (current !== null) {
      const timedOut = run.error !== undefined && 'code' in run.error && run.error.code === 'ETIMEDOUT';
      const how = timedOut ? `did not finish loading within ${timeoutMs / 1000} s` : run.error ? `stopped the probe while loading (${run.error.message})` : `crashed while loading (${run.signal ?? `exit status ${run.status}`})`;
      results.push({ file: current, ok: false, message: `${current}: ${how}` });
      done.add(current);
    } else if (run.error && !rest.every((f) => done.has(f))) {
      throw new Error(`the plugin probe did not start loading ${rest[0]} within ${timeoutMs / 1000} s (${run.error.message})`);
    } else if (run.status !== 0 && !rest.every((f) => done.has(f))) {
      throw new Error(`the plugin probe failed (${run.signal ?? `exit status ${run.status}`}): ${run.stderr.trim().split('\n')[0] ?? ''}`);
    }
    rest = rest.filter((f) => !done.has(f));
  }
  return results;
}
