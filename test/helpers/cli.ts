import { spawn } from 'node:child_process';
import { SVC } from './daemon.js';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the real `svc` binary against a daemon URL. */
export function runCli(args: string[], env: Record<string, string> = {}, cwd?: string): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [SVC, ...args], { env: { ...process.env, ...env }, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** `svc ARGS...` against one daemon: the e2e files' shorthand. */
export function svcAgainst(d: { url: string }): (...args: string[]) => Promise<CliResult> {
  return (...args) => runCli(args, { SVC_URL: d.url });
}
