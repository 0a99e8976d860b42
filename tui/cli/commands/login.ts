import type { Command } from 'commander';
import { ApiClient } from '../../client/http.js';
import { ApiError } from '../../client/errors.js';
import { routes } from '../../client/routes.js';
import { givenToken, type CliContext } from '../context.js';
import { credentialsFile, saveToken } from '../credentials.js';
import { CliError } from '../errors.js';

/** `svc login` checks a credential against the daemon and saves it; `svc logout` forgets it. */
export function registerLogin(program: Command, ctx: CliContext): void {
  program
    .command('login')
    .description('check the admin secret (or a token) against svcd and save it for later commands')
    .action(async () => {
      const url = ctx.client().url;
      const token = givenToken(program.opts<{ token?: string }>().token) ?? (await prompt());
      if (!token) throw new CliError('no credential given (use --token, SVC_TOKEN, or type it at the prompt)', 2);
      await routes.login(new ApiClient({ url, token })).catch((err: unknown) => {
        // Without auth_secret and the security plugin svcd has no auth routes: say so, save nothing.
        if (err instanceof ApiError && err.status === 404) throw new CliError(`auth is off on svcd at ${url} (no auth_secret, no security plugin): every command works without logging in`);
        throw err;
      });
      await saveToken(url, token);
      ctx.print(ctx.json() ? JSON.stringify({ url, saved_in: credentialsFile() }) : `logged in to ${url}; credential saved in ${credentialsFile()}`);
    });
  program
    .command('logout')
    .description('forget the saved credential for this daemon')
    .action(async () => {
      const url = ctx.client().url;
      await routes.logout(ctx.client()).catch(() => undefined);
      await saveToken(url, null);
      ctx.print(ctx.json() ? JSON.stringify({ url, logged_out: true }) : `logged out of ${url}`);
    });
}

async function prompt(): Promise<string> {
  if (!process.stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin as AsyncIterable<Buffer>) chunks.push(chunk);
    return Buffer.concat(chunks).toString().trim();
  }
  // Imported here: every other command would load readline at start-up for nothing.
  const [{ createInterface }, { Writable }] = await Promise.all([import('node:readline/promises'), import('node:stream')]);
  // readline echoes what is typed through its output: once the prompt is out, nothing more is
  // written, so the secret never shows on the screen (nor in scrollback or a recording).
  let hidden = false;
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (!hidden) process.stderr.write(chunk);
      done();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal: true });
  rl.on('SIGINT', () => {
    rl.close();
    process.stderr.write('\n');
    process.exit(130);
  });
  try {
    const answer = rl.question('svcd secret (not shown): ');
    hidden = true;
    return (await answer).trim();
  } finally {
    rl.close();
    process.stderr.write('\n');
  }
}
