#!/usr/bin/env -S node --max-old-space-size=1024 --
// The `--` ends Node's own options: Node 20 otherwise takes `--env-file FILE` anywhere on the
// command line for its own (`svc add … --env-file app.env`), and exits 9 when FILE is not there.
import { Command } from 'commander';
import { createContext } from './context.js';
import { registerCommands } from './commands/index.js';
import { commanderExitCode, errorExitCode, isExpected, jsonError } from './exit-codes.js';
import { disableCommanderSuggestions, suggestReadOnly } from './suggest.js';
import { VERSION } from '../../conf/version.js';

// Global options are recognised before and after the command, so this sees `svc list --json` too.
const jsonMode = process.argv.slice(2).includes('--json');

// A reader that went away (`svc logs | head`, `svc logs -f | grep -m1 ready`) took what it
// wanted: svc ends quietly with status 0 (docs/cli.md), not with Node's EPIPE stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE' && stream === process.stdout) process.stderr.write(`svc: cannot write the output: ${err.message}\n`);
    process.exit(err.code === 'EPIPE' ? 0 : 1);
  });
}

const program = new Command('svc')
  .description('svc: control the svc process manager daemon (svcd)')
  .version(VERSION, '-v, --version')
  .option('--url <url>', 'daemon address: host:port, http(s)://host:port or unix:/path/svcd.sock (env SVC_URL; default http://127.0.0.1:9002)')
  .option('--token <secret>', 'Bearer credential (env SVC_TOKEN; else what svc login saved for this URL)')
  .option('--json', 'machine-readable output (errors too, as {"error": {...}} on stderr)')
  .showHelpAfterError(jsonMode ? false : '(run with --help for usage)')
  .configureOutput({ outputError: (text, write) => write(jsonMode ? jsonError(text.replace(/^error: /, '').trim(), 2) : text) })
  // Usage errors exit 2 (docs/cli.md); an unknown command is corrected only to a read-only one.
  .exitOverride((err) => {
    const code = commanderExitCode(err);
    const unknown = err.code === 'commander.unknownCommand' ? /'([^']*)'/.exec(err.message)?.[1] : undefined;
    const hint = unknown === undefined ? null : suggestReadOnly(unknown);
    if (hint && !jsonMode) process.stderr.write(`(did you mean: svc ${hint}?)\n`);
    process.exit(code);
  });

registerCommands(program, createContext(program));
disableCommanderSuggestions(program);

program.parseAsync().catch((err: unknown) => {
  const exitCode = errorExitCode(err);
  const message = isExpected(err) ? (err as Error).message : `unexpected error: ${(err as Error).stack ?? String(err)}`;
  process.stderr.write(jsonMode ? jsonError(message, exitCode, err) : `svc: ${message}\n`);
  process.exit(exitCode);
});
