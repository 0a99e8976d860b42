import { Option, type Command } from 'commander';
import type { ApiClient } from '../../client/http.js';
import { CliError } from '../errors.js';
import type { CliContext } from '../context.js';
import { timestamp } from '../../client/format.js';
import { table } from '../format.js';
import { routes } from '../../client/routes.js';
import { credentialsFile, savedToken, saveToken } from '../credentials.js';

interface TokenView {
  id: string;
  name: string;
  role: string;
  created_at: number;
  created_by: string;
  renewed_at?: number;
  secret?: string;
}

/** The token id for an id or a name (names are unique). */
async function resolveToken(client: ApiClient, ref: string): Promise<string> {
  if (/^tok_[0-9a-f]{12}$/.test(ref)) return ref;
  const tokens = await client.get<TokenView[]>('/api/v1/auth/tokens');
  // Names are unique regardless of case on svcd, so `CI` finds the token named `ci`.
  const hit = tokens.find((t) => t.name === ref) ?? tokens.find((t) => t.name.toLowerCase() === ref.toLowerCase());
  if (!hit) throw new CliError(`no token with id or name '${ref}' (svc token list)`);
  return hit.id;
}

/** `svc token create | list | renew | revoke`: Access Tokens of the security plugin. */
export function registerToken(program: Command, ctx: CliContext): void {
  const cmd = program.command('token').description('Access Tokens (security plugin): create, list, renew, revoke');
  const issued = (t: TokenView, what: string) => {
    if (ctx.json()) return ctx.print(JSON.stringify(t, null, 2));
    ctx.print(`${what} token ${t.id} (${t.name}, ${t.role}). Its secret, shown only this once:\n\n  ${t.secret}\n\nuse it with: svc login --token <secret>, or SVC_TOKEN=<secret>`);
  };

  cmd
    .command('create <name>')
    .description('create a token (admin); prints its secret once')
    // A role svcd does not have is a usage error here (exit 2), as the other choices of svc are.
    .addOption(new Option('--role <role>', 'viewer, operator or admin').choices(['viewer', 'operator', 'admin']).makeOptionMandatory())
    .action(async (name: string, o: { role: string }) => {
      issued(await ctx.client().post<TokenView>('/api/v1/auth/tokens', { name, role: o.role }), 'created');
    });

  cmd
    .command('list')
    .description('tokens you may see: all for an admin, your own otherwise (never secrets)')
    .action(async () => {
      const tokens = await ctx.client().get<TokenView[]>('/api/v1/auth/tokens');
      if (ctx.json()) return ctx.print(JSON.stringify(tokens, null, 2));
      if (tokens.length === 0) return ctx.print('no tokens (create one with: svc token create NAME --role viewer|operator|admin)');
      ctx.print(table(['ID', 'NAME', 'ROLE', 'CREATED', 'BY', 'RENEWED'], tokens.map((t) => [t.id, t.name, t.role, timestamp(t.created_at * 1000), t.created_by, t.renewed_at ? timestamp(t.renewed_at * 1000) : '-'])));
    });

  cmd
    .command('renew <token>')
    .description('new secret for a token (id or name), same id, name and role; the old secret stops working at once')
    .action(async (ref: string) => {
      const client = ctx.client();
      const id = await resolveToken(client, ref);
      // Renewing the token `svc login` saved would leave every later command refused: save the new secret.
      const saved = client.token !== undefined && client.token === savedToken(client.url);
      const own = saved && (await routes.authStatus(client)).token?.id === id;
      const renewed = await client.post<TokenView>(`/api/v1/auth/tokens/${encodeURIComponent(id)}/renew`);
      issued(renewed, 'renewed'); // first: the old secret is dead, the new one must be seen even if saving fails
      if (own && renewed.secret) await saveToken(client.url, renewed.secret);
      if (own && !ctx.json()) ctx.print(`it was the credential svc login saved for ${client.url}: ${credentialsFile()} now holds the new secret`);
    });

  cmd
    .command('revoke <token>')
    .description('delete a token (id or name; admin)')
    .action(async (ref: string) => {
      const id = await resolveToken(ctx.client(), ref);
      const res = await ctx.client().delete<{ id: string; secret_reenabled: boolean }>(`/api/v1/auth/tokens/${encodeURIComponent(id)}`);
      if (ctx.json()) return ctx.print(JSON.stringify(res));
      ctx.print(`revoked token ${res.id}${res.secret_reenabled ? '; it was the last admin token, so the admin secret works again' : ''}`);
    });
}
