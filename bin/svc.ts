#!/usr/bin/env -S node --max-semi-space-size=1 --max-old-space-size=1024
import { Command } from 'commander';
import { ApiError } from '../tui/client/errors.js';
import { CliError } from '../tui/cli/errors.js';
import { createContext } from '../tui/cli/context.js';
import { registerCommands } from '../tui/cli/commands/index.js';
import { VERSION } from './version.js';

const program = new Command('svc')
  .description('svc: control the svc process manager daemon (svcd)')
  .version(VERSION, '-v, --version')
  .option('--url <url>', 'daemon address: http://host:port or unix:/path/svcd.sock (env SVC_URL; default http://127.0.0.1:9002)')
  .option('--token <secret>', 'Bearer credential (env SVC_TOKEN; else what svc login saved for this URL)')
  .option('--json', 'machine-readable output')
  .showHelpAfterError('(run with --help for usage)')
  .configureOutput({ outputError: (text, write) => write(text) });

registerCommands(program, createContext(program));

program.parseAsync().catch((err: unknown) => {
  if (err instanceof CliError || err instanceof ApiError) {
    process.stderr.write(`svc: ${err.message}\n`);
    process.exit(err instanceof CliError ? err.exitCode : 1);
  }
  process.stderr.write(`svc: unexpected error: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
