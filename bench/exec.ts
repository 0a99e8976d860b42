import { spawn } from 'node:child_process';

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion, capturing its output. A non-zero exit is data, not an error. */
export function runCommand(file: string, args: string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env: opts.env ?? process.env, cwd: opts.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() }));
  });
}

/** Like runCommand, but a non-zero exit throws with the command's stderr. */
export async function mustRun(file: string, args: string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<string> {
  const r = await runCommand(file, args, opts);
  if (r.code !== 0) throw new Error(`${file} ${args.join(' ')} exited with ${r.code}: ${(r.stderr || r.stdout).slice(0, 500)}`);
  return r.stdout;
}
