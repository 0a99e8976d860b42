import type { Command } from 'commander';
import { ApiError } from '../../client/errors.js';
import type { CliContext } from '../context.js';

/** `svc auth status | disable-secret`. */
export function registerAuth(program: Command, ctx: CliContext): void {
  const cmd = program.command('auth').description('authentication state of svcd');

  cmd
    .command('status')
    .description('the auth mode, and who the credential in use is')
    .action(async () => {
      const s = await ctx
        .client()
        .get<Record<string, unknown>>('/api/v1/auth/status')
        .catch((err: unknown) => {
          // Without auth_secret and the security plugin svcd has no auth routes (spec): open mode.
          if (err instanceof ApiError && err.status === 404) return null;
          throw err;
        });
      if (s === null) {
        if (ctx.json()) return ctx.print(JSON.stringify({ auth_required: false, mode: 'open', authenticated: false, security_plugin: false }, null, 2));
        return ctx.print(`mode open; auth is off on svcd at ${ctx.client().url} (no auth_secret, no security plugin): every request is allowed`);
      }
      if (ctx.json()) return ctx.print(JSON.stringify(s, null, 2));
      const who = s.authenticated ? `authenticated as ${s.principal === 'token' ? `token ${(s.token as { id: string; name: string }).name} (${String(s.role)})` : `the admin secret (${String(s.role)})`}` : 'not authenticated';
      const secret = s.security_plugin ? `; admin secret ${s.secret_enabled ? 'enabled' : 'disabled'}` : '';
      ctx.print(`mode ${String(s.mode)}; ${who}${secret}`);
    });

  cmd
    .command('disable-secret')
    .description('refuse the admin secret as a credential from now on (admin; an admin token must exist); revoking the last admin token re-enables it')
    .action(async () => {
      const res = await ctx.client().post<{ changed: boolean }>('/api/v1/auth/secret/disable');
      if (ctx.json()) return ctx.print(JSON.stringify(res));
      ctx.print(res.changed ? 'the admin secret is disabled: use an Access Token' : 'the admin secret was already disabled');
    });
}
