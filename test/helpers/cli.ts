import { spawn } from 'node:child_process';
import { SVC } from './daemon.js';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the real `svc` binary against a daemon URL; `input`, when given, is its standard input. */
export function runCli(args: string[], env: Record<string, string> = {}, cwd?: string, input?: string): Promise<CliResult> {
  return new Promise((resolve) => {
    const options = { env: { ...process.env, ...env }, cwd };
    const child = input === undefined ? spawn(process.execPath, [SVC, ...args], { ...options, stdio: ['ignore', 'pipe', 'pipe'] }) : spawn(process.execPath, [SVC, ...args], { ...options, stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdin?.end(input);
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
