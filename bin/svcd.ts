#!/usr/bin/env -S node --max-semi-space-size=1 --v8-pool-size=1
import { Command } from 'commander';
import { join, resolve } from 'node:path';
import { defaultRoot } from '../conf/default-root.js';
import { loadConfig, ConfigError, keyLocation } from '../conf/load-config.js';
import type { SvcConfig } from '../conf/keys.js';
import { checkStartup } from '../conf/startup-checks.js';
import { prepareFolders } from '../conf/directories.js';
import { resolveBindHost } from '../conf/loopback.js';
import { createLogger, type Logger } from '../conf/logger.js';
import { StoreOpenError } from '../state/store.js';
import { bootPlugins } from '../plugins/boot/boot.js';
import { StartupRefusal } from '../plugins/boot/refusal.js';
import { Daemon } from './daemon.js';
import { repairStore } from './repair-store.js';
import { VERSION } from '../conf/version.js';

const program = new Command('svcd')
  .description('svc daemon: runs and supervises programs, serves the JSON API (default 127.0.0.1:9002)')
  .version(VERSION, '-v, --version')
  .option('--root <dir>', 'installation root (default: $SVC_ROOT, else the current directory; ./.svc in a source checkout)')
  .option('--config <file>', 'config file, which must exist (default: <root>/conf/svc.toml; that one missing = embedded defaults)')
  .option('--port <port>', 'override [server].port', (v) => (/^\d+$/.test(v.trim()) ? Number(v) : Number.NaN))
  .option('--log-level <level>', 'debug, info, warn or error', 'info')
  .option('--repair-store', 'open a state store with a damaged write-ahead log, keep what is readable, report, and exit (docs/operations.md)')
  .addHelpText('after', '\nEnvironment: SVC_ROOT, SVC_LICENSE, SVC_LICENSE_STRICT, SVC_SPAWNER, SVC_SPAWNER_BINARY. Docs: docs/configuration.md')
  // A usage error (unknown option or argument) exits 2 like every refusal to start; --help and --version 0.
  .exitOverride((err) => process.exit(err.exitCode === 0 ? 0 : 2));
program.parse();
const opts = program.opts<{ root?: string; config?: string; port?: number; logLevel: string; repairStore?: boolean }>();
const LEVELS = ['debug', 'info', 'warn', 'error'] as const;
type LogLevel = (typeof LEVELS)[number];

function refuse(message: string): never {
  process.stderr.write(`svcd: refusing to start: ${message}\n`);
  process.exit(2);
}

async function configure(root: string) {
  try {
    // A --config that is not there is a typo, not a request for the defaults (its auth_secret would be silently off).
    const config = opts.config ? loadConfig(root, resolve(opts.config), { mustExist: true }) : loadConfig(root);
    if (!LEVELS.includes(opts.logLevel as LogLevel)) throw new ConfigError(`--log-level: must be debug, info, warn or error (not "${opts.logLevel}")`);
    if (opts.port !== undefined) {
      if (!Number.isInteger(opts.port) || opts.port < 0 || opts.port > 65535) throw new ConfigError('--port: must be an integer from 0 to 65535');
      config.server.port = opts.port;
    }
    const bind = config.server.socket_only ? config.server.host : await bindAddressOf(config);
    const warnings = checkStartup(config, bind);
    prepareFolders(config);
    config.server.host = bind; // listen on the address that was checked, not on a second resolution
    return { config, warnings };
  } catch (err) {
    if (err instanceof ConfigError) refuse(err.message);
    throw err;
  }
}

/**
 * SIGHUP (`kill -HUP`, a systemd ExecReload, the terminal svcd runs in closing): svcd does not
 * reload svc.toml while it runs, and Node's default for the signal ended svcd at once, with no
 * graceful stop and its programs left unsupervised. It keeps running, says so, and checks the file
 * so that the next start is not refused by surprise.
 */
function onHangup(root: string, log: Logger): void {
  const file = opts.config ? resolve(opts.config) : join(root, 'conf', 'svc.toml');
  try {
    loadConfig(root, file, { mustExist: opts.config !== undefined });
    log.warn(`SIGHUP: svcd does not reload its configuration while it runs; restart svcd to apply ${file} (which is valid). Stack files and conf/reactions.toml are reloaded when they change.`);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    log.error(`SIGHUP: svcd does not reload its configuration while it runs, and ${file} would refuse the next start: ${err.message}`);
  }
}

async function bindAddressOf(config: SvcConfig): Promise<string> {
  const { host } = config.server;
  try {
    return await resolveBindHost(host);
  } catch (err) {
    throw new ConfigError(`${keyLocation(config, 'server', 'host')}: server.host = "${host}": cannot resolve (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}

async function main(): Promise<void> {
  const fallback = defaultRoot(process.cwd(), process.env);
  const root = opts.root ? resolve(opts.root) : fallback.root;
  const { config, warnings } = await configure(root);
  const log = createLogger({ file: `${config.storage.log_dir}/svcd.log`, level: opts.logLevel as LogLevel });
  for (const w of warnings) log.warn(w);
  process.on('SIGHUP', () => onHangup(root, log));
  if (!opts.root && fallback.checkout) log.info(`run from a source checkout: SVC_ROOT is ${root} (set SVC_ROOT or --root to choose another)`);
  if (opts.repairStore) {
    try {
      process.stdout.write(`${await repairStore(config, log)}\n`);
    } catch (err) {
      await log.close();
      refuse((err as Error).message);
    }
    await log.close();
    return;
  }
  const plugins = await bootPlugins({ config, env: process.env, version: VERSION, now: Date.now }).catch(async (err: unknown) => {
    if (!(err instanceof StartupRefusal)) throw err;
    log.error('start-up refused', { error: err.message });
    await log.close();
    return refuse(err.message);
  });
  for (const w of plugins.warnings) log.warn(w);
  let daemon: Daemon;
  try {
    daemon = await Daemon.start({ config, log, version: VERSION, plugins, onExit: (code) => void log.close().then(() => process.exit(code)) });
  } catch (err) {
    if (err instanceof StoreOpenError || err instanceof Error) {
      log.error('start-up failed', { error: (err).message });
      await log.close();
      refuse(err.message);
    }
    throw err;
  }
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => void daemon.shutdown(signal));
}

main().catch((err: unknown) => {
  process.stderr.write(`svcd: fatal: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
