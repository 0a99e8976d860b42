import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mustRun, runCommand } from '../exec.js';
import { waitFor } from '../proc.js';
import type { BenchProgram, Manager, ProgramState, StatusQuery } from './manager.js';
import { parseStructs, XmlRpcClient } from './xmlrpc.js';
import { scratchDir } from '../scratch.js';

/** A word of a supervisord `command=` line: shlex-quoted, with `%` escaped for its interpolation. */
function quoteWord(word: string): string {
  const escaped = word.replaceAll('%', '%%');
  return /^[\w@%+=:,./-]+$/.test(escaped) ? escaped : `'${escaped.replaceAll("'", `'"'"'`)}'`;
}

export function supervisordSection(p: BenchProgram): string {
  const lines = [`[program:${p.name}]`, `command=${[p.command, ...p.args].map(quoteWord).join(' ')}`, 'autostart=true', 'autorestart=true'];
  // startsecs=0: RUNNING as soon as the process is spawned, as svc and PM2 report it.
  lines.push('startsecs=0');
  // After RUNNING, an exit goes straight back to STARTING: supervisord has no restart delay;
  // startretries only bounds failures before RUNNING and is set high anyway.
  if (p.restart === 'fast-restart') lines.push('startretries=1000000');
  return `${lines.join('\n')}\n`;
}

/** supervisord in the foreground with its own config, unix socket and pidfile in a temp dir. */
export class SupervisordManager implements Manager {
  readonly name = 'supervisord' as const;
  readonly variant = 'supervisord';
  private dir = '';
  private conf = '';
  private proc: ChildProcess | null = null;
  private rpc: XmlRpcClient | null = null;
  private batches = 0;

  async start(): Promise<void> {
    const dir = (this.dir = scratchDir('supervisord-'));
    mkdirSync(join(dir, 'programs'));
    mkdirSync(join(dir, 'logs'));
    this.conf = join(dir, 'supervisord.conf');
    const sock = join(dir, 'supervisor.sock');
    writeFileSync(
      this.conf,
      [
        '[unix_http_server]',
        `file=${sock}`,
        '[supervisord]',
        `logfile=${join(dir, 'supervisord.log')}`,
        `pidfile=${join(dir, 'supervisord.pid')}`,
        `childlogdir=${join(dir, 'logs')}`,
        'nodaemon=true',
        'user=root',
        'minfds=16384',
        '[rpcinterface:supervisor]',
        'supervisor.rpcinterface_factory = supervisor.rpcinterface:make_main_rpcinterface',
        '[supervisorctl]',
        `serverurl=unix://${sock}`,
        '[include]',
        `files = ${join(dir, 'programs')}/*.conf`,
        '',
      ].join('\n'),
    );
    this.proc = spawn('supervisord', ['-n', '-c', this.conf], { cwd: dir, stdio: 'ignore' });
    const rpc = (this.rpc = new XmlRpcClient(sock));
    await waitFor(() => rpc.call('supervisor.getState').then(() => true, () => false), 'supervisord to listen', 30_000, 20);
  }

  daemonPid(): number {
    return this.proc?.pid ?? Number.NaN;
  }

  private ctl(args: string[]) {
    return runCommand('supervisorctl', ['-c', this.conf, ...args]);
  }

  async add(programs: BenchProgram[]): Promise<void> {
    writeFileSync(join(this.dir, 'programs', `batch-${++this.batches}.conf`), programs.map(supervisordSection).join('\n'));
    await mustRun('supervisorctl', ['-c', this.conf, 'update']);
  }

  async list(): Promise<ProgramState[]> {
    const xml = await this.rpc!.call('supervisor.getAllProcessInfo');
    return parseStructs(xml).map((s) => {
      const pid = Number(s.get('pid') ?? 0);
      return { name: s.get('name') ?? '', running: s.get('statename') === 'RUNNING' && pid > 0, pid: pid > 0 ? pid : null };
    });
  }

  statusQueries(): { api: StatusQuery; cli: StatusQuery } {
    return {
      api: { label: 'XML-RPC getAllProcessInfo', run: () => this.list() },
      // Exit status 3 means "not all running": still a complete answer.
      cli: { label: 'supervisorctl status', run: () => this.ctl(['status']) },
    };
  }

  async stopAll(): Promise<void> {
    await this.ctl(['stop', 'all']);
  }

  async stop(): Promise<void> {
    const proc = this.proc;
    if (proc && proc.exitCode === null && proc.signalCode === null) {
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(timer);
    }
    this.proc = null;
    await this.rpc?.close();
    this.rpc = null;
  }
}
