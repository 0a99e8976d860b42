import { spawn } from 'node:child_process';
import { SVCD, TIME_SCALE } from './daemon.js';

/**
 * Runs svcd in `root` and waits for it to exit on its own (a refused start). A daemon that
 * starts instead is stopped at once (refusal stays empty, so the test fails saying so).
 */
export function runRefused(root: string, env: Record<string, string> = {}): Promise<{ code: number | null; stderr: string; refusal: string }> {
  const proc = spawn(process.execPath, [SVCD], { env: { ...process.env, SVC_ROOT: root, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  proc.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    if (stderr.includes('"msg":"svcd ready"') && proc.exitCode === null) proc.kill('SIGTERM');
  });
  const timer = setTimeout(() => proc.kill('SIGKILL'), 20_000 * TIME_SCALE); // bounds a hang only
  return new Promise((resolve) => {
    proc.once('exit', (code) => {
      clearTimeout(timer);
      const refusal = stderr.split('\n').filter((l) => l.startsWith('svcd: refusing to start: '));
      resolve({ code, stderr, refusal: refusal.join('\n') });
    });
  });
}
