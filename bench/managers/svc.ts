import { readFileSync } from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { mustRun } from '../exec.js';
import { childPids, cmdline } from '../proc.js';
import type { BenchProgram, Manager, ProgramState, StatusQuery } from './manager.js';
import { scratchDir } from '../scratch.js';

const REPO = fileURLToPath(new URL('../../..', import.meta.url));
export const SVCD = join(REPO, 'dist', 'bin', 'svcd.js');
export const SVC = join(REPO, 'dist', 'bin', 'svc.js');

/** How programs are registered: one POST with an array, or one POST per program (concurrently). */
export type SvcAddMode = 'array' | 'each';

interface Summary {
  name: string;
  status: string;
  pid: number | null;
}

const RUNNING = new Set(['Running', 'Healthy', 'Unhealthy']);

export function svcConfig(p: BenchProgram): Record<string, unknown> {
  const base = { name: p.name, command: p.command, args: p.args };
  // backoff_secs 0 = respawn at once; no retry_limit = unlimited.
  return p.restart === 'fast-restart' ? { ...base, autorestart: true, backoff_secs: 0, startsecs: 0 } : base;
}

/** The node flags svcd (or svc) ships with (its shebang line), so the bench measures what users run. */
export function shippedNodeFlags(file = SVCD): string[] {
  const first = readFileSync(file, 'utf8').split('\n', 1)[0] ?? '';
  const m = /^#!\/usr\/bin\/env -S node (.+)$/.exec(first);
  return m?.[1] ? m[1].trim().split(/\s+/) : [];
}

/** svcd from this checkout (dist/), on a free port, in a temporary SVC_ROOT. */
export class SvcManager implements Manager {
  readonly name = 'svc' as const;
  readonly variant: string;
  private root = '';
  private url = '';
  private proc: ChildProcess | null = null;

  constructor(
    private readonly mode: SvcAddMode = 'array',
    private readonly concurrency = 16,
    private readonly extraArgs: string[] = [],
    private readonly env: Record<string, string> = {},
    /** The svcd to run (another build's, to compare). */
    private readonly svcd = SVCD,
  ) {
    const how = mode === 'array' ? 'one POST, array' : `N POSTs, ${concurrency} at a time`;
    this.variant = `svc (${how}${env.SVC_SPAWNER === 'off' ? ", Node's child_process" : ''})`;
  }

  async start(): Promise<void> {
    this.root = scratchDir('svc-');
    mkdirSync(join(this.root, 'conf'), { recursive: true });
    writeFileSync(join(this.root, 'conf', 'svc.toml'), '[server]\nport = 0\n');
    const proc = (this.proc = spawn(process.execPath, [...shippedNodeFlags(this.svcd), ...this.extraArgs, this.svcd], { cwd: this.root, env: { ...process.env, SVC_ROOT: this.root, ...this.env }, stdio: ['ignore', 'ignore', 'pipe'] }));
    const lines: string[] = [];
    this.url = await new Promise<string>((resolve, reject) => {
      createInterface({ input: proc.stderr }).on('line', (line) => {
        if (lines.length < 200) lines.push(line);
        const m = /"msg":"svcd ready".*"listen":"([^"]+)"/.exec(line);
        if (m) resolve(`http://${m[1]}`);
      });
      proc.once('exit', (code) => reject(new Error(`svcd exited with ${code}: ${lines.join('\n')}`)));
    });
  }

  /** The daemon's temporary SVC_ROOT (its working directory). */
  rootDir(): string {
    return this.root;
  }

  /** http://host:port of the running daemon. */
  baseUrl(): string {
    return this.url;
  }

  daemonPid(): number {
    return this.proc?.pid ?? Number.NaN;
  }

  /** svcd and its svc-spawner (when it runs one). */
  supervisorPids(): number[] {
    const pid = this.daemonPid();
    return [pid, ...childPids(pid).filter((c) => /svc-spawner/.test(cmdline(c)))];
  }

  async api<T>(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<T> {
    const res = await request(`${this.url}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.body.text();
    if (res.statusCode >= 300) throw new Error(`svc ${method} ${path}: ${res.statusCode} ${text.slice(0, 300)}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  async add(programs: BenchProgram[]): Promise<void> {
    if (this.mode === 'array') {
      await this.api('POST', '/api/v1/programs', programs.map(svcConfig));
      return;
    }
    let next = 0;
    const worker = async () => {
      while (next < programs.length) await this.api('POST', '/api/v1/programs', svcConfig(programs[next++]));
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, programs.length) }, worker));
  }

  /** Applies a whole stack (PUT /api/v1/stack, JSON) in one request. */
  async applyStack(programs: BenchProgram[]): Promise<void> {
    await this.api('PUT', '/api/v1/stack', { services: programs.map(svcConfig) });
  }

  async list(): Promise<ProgramState[]> {
    const items = await this.api<Summary[]>('GET', '/api/v1/programs');
    return items.map((p) => ({ name: p.name, running: RUNNING.has(p.status) && p.pid !== null, pid: p.pid }));
  }

  statusQueries(): { api: StatusQuery; cli: StatusQuery } {
    return {
      api: { label: 'GET /api/v1/programs', run: () => this.api('GET', '/api/v1/programs') },
      cli: { label: 'svc list', run: () => mustRun(process.execPath, [...shippedNodeFlags(SVC), SVC, '--url', this.url, 'list']) },
    };
  }

  async stopAll(): Promise<void> {
    await this.api('POST', '/api/v1/programs/batch', { select_all: true, action: { type: 'Stop', payload: null } });
  }

  async stop(): Promise<void> {
    const proc = this.proc;
    if (proc && proc.exitCode === null && proc.signalCode === null) {
      const exited = new Promise((r) => proc.once('exit', r));
      await this.api('POST', '/api/v1/system/shutdown').catch(() => proc.kill('SIGTERM'));
      const timer = setTimeout(() => proc.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    }
    this.proc = null;
  }
}
