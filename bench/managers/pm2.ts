import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { mustRun } from '../exec.js';
import { PM2_BIN, PM2_DIR } from '../tools.js';
import type { BenchProgram, Manager, ProgramState, StatusQuery } from './manager.js';
import { scratchDir } from '../scratch.js';

/** The part of PM2's programmatic API (lib/API.js) the bench uses. */
interface Pm2Api {
  connect(cb: (err: Error | null) => void): void;
  start(config: object, cb: (err: Error | null) => void): void;
  list(cb: (err: Error | null, list: { name: string; pid: number; pm2_env: { status: string } }[]) => void): void;
  killDaemon(cb: (err: Error | null) => void): void;
  disconnect(cb?: () => void): void;
}

function call<T>(fn: (cb: (err: Error | null, value: T) => void) => void): Promise<T> {
  return new Promise((resolve, reject) => fn((err, value) => (err ? reject(err) : resolve(value))));
}

export function pm2App(p: BenchProgram): Record<string, unknown> {
  const base = { name: p.name, script: p.command, args: p.args, interpreter: 'none', exec_mode: 'fork', autorestart: true };
  // restart_delay 0 and no exp_backoff_restart_delay = respawn at once; max_restarts high
  // enough never to be reached (PM2 stops an app after max_restarts unstable restarts).
  return p.restart === 'fast-restart' ? { ...base, restart_delay: 0, max_restarts: 1_000_000, min_uptime: 0 } : base;
}

/** PM2 with its own PM2_HOME in a temporary directory, through its programmatic API and CLI. */
export class Pm2Manager implements Manager {
  readonly name = 'pm2' as const;
  readonly variant = 'pm2';
  private home = '';
  private api: Pm2Api | null = null;

  async start(): Promise<void> {
    this.home = scratchDir('pm2-');
    const pm2 = createRequire(join(PM2_DIR, 'package.json'))(PM2_DIR) as { custom: new (opts: object) => Pm2Api };
    const api = (this.api = new pm2.custom({ pm2_home: this.home }));
    await call<void>((cb) => api.connect((err) => cb(err, undefined)));
  }

  daemonPid(): number {
    return Number(readFileSync(join(this.home, 'pm2.pid'), 'utf8').trim());
  }

  private client(): Pm2Api {
    if (!this.api) throw new TypeError('pm2: start() first');
    return this.api;
  }

  private cli(args: string[]): Promise<string> {
    return mustRun(process.execPath, [PM2_BIN, ...args], { env: { ...process.env, PM2_HOME: this.home } });
  }

  async add(programs: BenchProgram[]): Promise<void> {
    await call<void>((cb) => this.client().start({ apps: programs.map(pm2App) }, (err) => cb(err, undefined)));
  }

  async list(): Promise<ProgramState[]> {
    const items = await call<{ name: string; pid: number; pm2_env: { status: string } }[]>((cb) => this.client().list(cb));
    return items.map((p) => ({ name: p.name, running: p.pm2_env.status === 'online' && p.pid > 0, pid: p.pid > 0 ? p.pid : null }));
  }

  statusQueries(): { api: StatusQuery; cli: StatusQuery } {
    return {
      api: { label: 'pm2 API list()', run: () => this.list() },
      cli: { label: 'pm2 jlist', run: () => this.cli(['jlist']) },
    };
  }

  async stopAll(): Promise<void> {
    await this.cli(['stop', 'all']);
  }

  async stop(): Promise<void> {
    const api = this.api;
    if (api) {
      await call<void>((cb) => api.killDaemon((err) => cb(err, undefined))).catch(() => undefined);
      api.disconnect();
    }
    this.api = null;
  }
}
