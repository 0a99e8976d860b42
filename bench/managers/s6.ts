import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, closeSync, constants, mkdirSync, openSync, readdirSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { mustRun } from '../exec.js';
import { childPids, waitFor } from '../proc.js';
import type { BenchProgram, Manager, ProgramState, StatusQuery } from './manager.js';
import { scratchDir } from '../scratch.js';

/** A word for a `run` script (sh): single-quoted unless plain. */
function shWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'"'"'`)}'`;
}

/**
 * The pid in an s6-supervise `supervise/status` file (s6 2.11: tain stamp 12 bytes, ready
 * stamp 12 bytes, then the pid as a big-endian u64; 0 when down). What s6-svstat reads.
 */
export function s6StatusPid(status: Buffer): number | null {
  if (status.length < 32) return null;
  const pid = Number(status.readBigUInt64BE(24));
  return pid > 0 ? pid : null;
}

/**
 * s6 (skarnet's supervision suite, Debian package `s6`): our own s6-svscan on a temporary scan
 * directory, never the system's. One service directory per program with a `run` script
 * (`exec` of the command); s6-svscan starts one s6-supervise per service. "Daemon" figures
 * (RSS, CPU, wake-ups) are the sum over s6-svscan and every s6-supervise (`supervisorPids`).
 */
export class S6Manager implements Manager {
  readonly name = 's6' as const;
  readonly variant = 's6';
  private dir = '';
  private scan = '';
  private proc: ChildProcess | null = null;

  async start(): Promise<void> {
    this.dir = scratchDir('s6-');
    this.scan = join(this.dir, 'scan');
    mkdirSync(this.scan);
    const proc = (this.proc = spawn('s6-svscan', [this.scan], { stdio: ['ignore', 'ignore', 'inherit'], detached: true }));
    await new Promise<void>((resolve, reject) => {
      proc.once('spawn', resolve);
      proc.once('error', reject);
    });
    await waitFor(() => readdirSync(this.scan).includes('.s6-svscan'), 's6-svscan control dir', 10_000, 10);
  }

  daemonPid(): number {
    return this.proc?.pid ?? Number.NaN;
  }

  /** s6-svscan and its s6-supervise children. */
  supervisorPids(): number[] {
    const pid = this.daemonPid();
    return [pid, ...childPids(pid)];
  }

  async add(programs: BenchProgram[]): Promise<void> {
    for (const p of programs) {
      const svc = join(this.scan, p.name);
      mkdirSync(svc);
      writeFileSync(join(svc, 'run'), `#!/bin/sh\nexec ${[p.command, ...p.args].map(shWord).join(' ')}\n`);
      chmodSync(join(svc, 'run'), 0o755);
      // s6-supervise restarts at once, but waits 1 s when the service lived less than a second.
    }
    await mustRun('s6-svscanctl', ['-a', this.scan]);
  }

  private services(): string[] {
    return readdirSync(this.scan).filter((n) => !n.startsWith('.'));
  }

  async list(): Promise<ProgramState[]> {
    return this.services().map((name) => {
      let pid: number | null = null;
      try {
        pid = s6StatusPid(readFileSync(join(this.scan, name, 'supervise', 'status')));
      } catch {
        /* not supervised yet */
      }
      return { name, running: pid !== null, pid };
    });
  }

  statusQueries(): { api: StatusQuery; cli: StatusQuery } {
    return {
      api: { label: 'read supervise/status files', run: () => this.list() },
      cli: { label: 's6-svstat per service', run: () => mustRun('sh', ['-c', 'for d in "$1"/*; do s6-svstat -o up,pid "$d"; done', 'sh', this.scan]) },
    };
  }

  /** `d` written to every service's supervise/control FIFO: what `s6-svc -d` does (one service per call). */
  async stopAll(): Promise<void> {
    for (const name of this.services()) {
      const fd = openSync(join(this.scan, name, 'supervise', 'control'), constants.O_WRONLY | constants.O_NONBLOCK);
      try {
        writeSync(fd, 'd');
      } finally {
        closeSync(fd);
      }
    }
    return Promise.resolve();
  }

  async stop(): Promise<void> {
    const proc = this.proc;
    if (proc && proc.exitCode === null && proc.signalCode === null) {
      const exited = new Promise((r) => proc.once('exit', r));
      // -t: s6-svscan brings every service down, ends its supervisors, and exits.
      await mustRun('s6-svscanctl', ['-t', this.scan]).catch(() => proc.kill('SIGTERM'));
      const timer = setTimeout(() => proc.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    }
    this.proc = null;
  }
}
