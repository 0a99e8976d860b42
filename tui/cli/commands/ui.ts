import type { Command } from 'commander';
import { constants } from 'node:os';
import { ApiError } from '../../client/errors.js';
import { ApiClient } from '../../client/http.js';
import { routes } from '../../client/routes.js';
import type { CliContext } from '../context.js';
import { CliError } from '../errors.js';
import { coloursWanted } from '../../client/colours.js';

export const NOT_A_TTY = 'svc ui needs an interactive terminal; use svc list / svc events / svc logs instead';

/** Alternate screen on/off and cursor hide/show, so quitting restores the terminal as it was. */
const ENTER = '\x1b[?1049h\x1b[H\x1b[?25l';
const LEAVE = '\x1b[?25h\x1b[?1049l';
/** Signals that end svc ui as q does (Ctrl-C reaches it as a key: the terminal is in raw mode). */
const QUIT_SIGNALS: NodeJS.Signals[] = ['SIGTERM', 'SIGINT'];

export function registerUi(program: Command, ctx: CliContext): void {
  program
    .command('ui')
    .alias('top')
    .description('full-screen dashboard: programs, details, live logs, events and actions (press ? for keys)')
    .action(async () => {
      if (!process.stdout.isTTY || !process.stdin.isTTY) throw new CliError(NOT_A_TTY, 2);
      const { url, token, credentialHint } = ctx.client();
      // Ink draws only the final frame when it believes it runs in CI (CI or CONTINUOUS_INTEGRATION
      // set). A real terminal was just checked for, so this session is interactive whatever they
      // say. They are removed, not set to 'false': chalk takes any CI variable for a CI without
      // colours, and the dashboard lost every colour.
      delete process.env.CI;
      delete process.env.CONTINUOUS_INTEGRATION;
      // NO_COLOR (no-color.org), which chalk does not read: no colour at all.
      if (!coloursWanted()) process.env.FORCE_COLOR = '0';
      // React's production build: the development one checks and records far more per render,
      // which a dashboard that stays open all day pays for in CPU and memory.
      process.env.NODE_ENV ??= 'production';
      // Loaded here so that other commands do not pay for React and Ink at start-up.
      const [{ render }, { createElement }, { apiDashboardClient }, { default: Dashboard }] = await Promise.all([
        import('ink'),
        import('react'),
        import('../../dashboard/api-client.js'),
        import('../../dashboard/Dashboard.js'),
      ]);
      // A short timeout: a hung daemon must show as disconnected, not freeze the screen.
      const api = new ApiClient({ url, token, credentialHint, timeoutMs: 5000 });
      // A credential svcd refuses is said at once, as every other command says it, not as a
      // banner that retries for good. A daemon not up yet is the dashboard's to wait for.
      await api.get('/api/v1/programs').catch((err: unknown) => {
        if (err instanceof ApiError && (err.status === 401 || err.status === 403)) throw new CliError(err.message, 1);
      });
      // Which actions this credential may take, so that one it lacks is refused before a y/N.
      // 404: svcd has no auth (anyone may act); any other failure: svcd's 403s still say it.
      const role = await routes.authStatus(api).then(
        (s) => (s.authenticated ? (s.role ?? null) : null),
        () => null,
      );
      const client = apiDashboardClient(api);
      process.stdout.write(ENTER);
      const restore = () => process.stdout.write(LEAVE);
      process.once('exit', restore);
      const app = render(createElement(Dashboard, { client, role }), { exitOnCtrlC: false, patchConsole: true });
      // kill (SIGTERM, SIGINT): quit as with q (raw mode off, the screen given back),
      // then exit as the signal would. Node's default ended at once, leaving the shell on the
      // alternate screen with the dashboard's last frame under it.
      let signalled = 0;
      const onSignal = (signal: NodeJS.Signals) => {
        signalled = 128 + (constants.signals[signal] ?? 0);
        app.unmount();
      };
      for (const signal of QUIT_SIGNALS) process.once(signal, onSignal);
      try {
        await app.waitUntilExit();
      } finally {
        app.cleanup();
        process.off('exit', restore);
        restore();
      }
      // Keep-alive sockets and timers must not hold the prompt back once the user quit.
      process.exit(signalled);
    });
}
