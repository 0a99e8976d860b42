import { spawn } from 'node:child_process';
import { CAPTURE_LIMIT, type CaptureSpec, type ExitInfo } from './port.js';
import { constants } from 'node:os';
import type { Readable } from 'node:stream';
import { childProcessPlan, describeHelperFailure } from './exec-helper.js';

/** OsPort.capture with Node's child_process: pipes for fds 1 and 2, the group killed at the timeout (or `abort`). */
export function captureWithChildProcess(spec: CaptureSpec, timeoutMs: number, abort?: AbortSignal): Promise<ExitInfo & { timedOut: boolean; output: string }> {
  return new Promise((resolve) => {
    const plan = childProcessPlan(spec);
    if (plan instanceof Error) {
      resolve({ code: null, signal: null, error: plan.message, timedOut: false, output: '' });
      return;
    }
    let child;
    try {
      const status = plan.statusFd ? (['pipe'] as const) : [];
      child = spawn(plan.file, plan.args, { cwd: spec.cwd, env: spec.env, uid: plan.uid, gid: plan.gid, detached: true, stdio: ['ignore', 'pipe', 'pipe', ...status] });
    } catch (err) {
      // Invalid arguments (a NUL byte) throw before anything is opened.
      resolve({ code: null, signal: null, error: (err as Error).message, timedOut: false, output: '' });
      return;
    }
    let output = Buffer.alloc(0);
    const keep = (chunk: Buffer) => {
      if (output.length < CAPTURE_LIMIT) output = Buffer.concat([output, chunk]).subarray(0, CAPTURE_LIMIT);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    // svc-exec's word on why the command could not start (nothing once it runs).
    let report = '';
    (plan.statusFd ? (child.stdio[plan.statusFd] as Readable | null) : null)?.on('data', (chunk: Buffer) => (report += chunk.toString()));
    let timedOut = false;
    /** The leader's end, once seen: the verdict is its, whatever holds the pipes after it. */
    let exited: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    const killGroup = () => {
      try {
        process.kill(-(child.pid ?? 0), 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const finish = () => {
      clearTimeout(timer);
      abort?.removeEventListener('abort', expire);
      const { code, signal } = exited!;
      const failure = describeHelperFailure(spec, report);
      if (failure) {
        resolve({ code: null, signal: null, error: failure, timedOut, output: '' });
        return;
      }
      resolve({ code, signal: signal ? (constants.signals[signal] ?? null) : null, timedOut, output: output.toString('utf8') });
    };
    const expire = () => {
      if (exited) {
        // A descendant in a session of its own still holds the pipes: do not wait for it.
        child.stdout?.destroy();
        child.stderr?.destroy();
        finish();
        return;
      }
      timedOut = true;
      killGroup();
    };
    const timer = setTimeout(expire, timeoutMs);
    if (abort?.aborted) expire();
    else abort?.addEventListener('abort', expire, { once: true });
    child.once('error', (err) => {
      clearTimeout(timer);
      abort?.removeEventListener('abort', expire);
      resolve({ code: null, signal: null, error: (err as NodeJS.ErrnoException).code ?? err.message, timedOut, output: '' });
    });
    // As the spawner does (KILL_GROUP_ON_EXIT): when the command ends, what it left in its process
    // group ends too, so a background child holding stdout neither outlives the probe nor turns
    // its exit 0 into a timeout. The pipes then close and the output is complete.
    child.once('exit', (code, signal) => {
      exited = { code, signal };
      killGroup();
    });
    child.once('close', (code, signal) => {
      exited ??= { code, signal };
      finish();
    });
  });
}
