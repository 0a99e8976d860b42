import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { CliError, makeFolder } from '../errors.js';
import type { CliContext } from '../context.js';
import { timestamp } from '../../client/format.js';
import { table } from '../format.js';

// Offline tools load node:crypto and the license code only when used (CLI start-up cost).
const license = async () => ({
  keys: await import('../../../plugins/license/keys.js'),
  issue: await import('../../../plugins/license/issue.js'),
  verify: await import('../../../plugins/license/verify.js'),
  decode: await import('../../../plugins/license/license-key.js'),
  trusted: await import('../../../plugins/license/trusted-keys.js'),
  semver: await import('../../../plugins/license/semver.js'),
  features: await import('../../../plugins/license/features.js'),
});

/**
 * `svc license keygen | issue | inspect` work offline on keys and files; `svc license show`
 * asks the daemon (GET /api/v1/system/license). docs/plugins.md describes the key format.
 */
export function registerLicense(program: Command, ctx: CliContext): void {
  const VERSION = program.version() ?? '0.0.0'; // set by bin/svc.ts from package.json
  const cmd = program.command('license').description('issue, inspect and show license keys');

  cmd
    .command('keygen')
    .description('create a license signing key (private, mode 600) and its public key line for [license].trusted_keys')
    .requiredOption('--out <dir>', 'directory to write license-signing.key and license-signing.pub')
    .option('--comment <text>', 'comment stored on the public key line', 'svc-license-key')
    .action(async (o: { out: string; comment: string }) => {
      const { keys } = await license();
      const dir = resolve(o.out);
      const priv = join(dir, 'license-signing.key');
      const pub = join(dir, 'license-signing.pub');
      for (const f of [priv, pub]) if (existsSync(f)) throw new CliError(`${f} exists; refusing to overwrite a signing key (choose another --out)`, 2);
      makeFolder(dir, '--out', 0o700);
      const key = keys.generateSigningKey(o.comment.replace(/\s+/g, '-'));
      writeFileSync(priv, key.privatePem, { mode: 0o600 });
      writeFileSync(pub, `${key.publicLine}\n`, { mode: 0o644 });
      if (ctx.json()) return ctx.print(JSON.stringify({ signing_key: priv, public_key: pub, key_id: key.id }));
      ctx.print(`signing key  ${priv} (keep it secret)\npublic key   ${pub} (key id ${key.id})\ntrust it: append the .pub line to the file named by [license].trusted_keys in conf/svc.toml`);
    });

  cmd
    .command('issue')
    .description('sign a license key with a signing key from svc license keygen; prints the key')
    .requiredOption('--signing-key <file>', 'the private key (license-signing.key)')
    .requiredOption('--to <name>', 'issued_to: who the license is for')
    .requiredOption('--grants <list>', 'comma-separated plugins: security,notify,isolation,ui')
    .option('--expires <when>', 'expiry: YYYY-MM-DD (00:00 UTC), an ISO date-time, Unix seconds, or <N>d from now (default: perpetual)')
    .option('--min-version <v>', 'oldest svcd version the license is valid for')
    .option('--max-version <v>', 'newest svcd version the license is valid for')
    .option('--major <n>', `the svc major version (default: this svc's, ${VERSION.split('.')[0]})`)
    .action(async (o: { signingKey: string; to: string; grants: string; expires?: string; minVersion?: string; maxVersion?: string; major?: string }) => {
      const { keys, issue, semver, features } = await license();
      let signingKey;
      try {
        signingKey = keys.signingKeyFromPem(readFileSync(o.signingKey, 'utf8'));
      } catch (err) {
        throw new CliError(`--signing-key: ${o.signingKey}: ${(err as Error).message}`, 2);
      }
      for (const [flag, v] of [['--min-version', o.minVersion], ['--max-version', o.maxVersion]] as const) {
        if (v !== undefined && !semver.isVersion(v)) throw new CliError(`${flag}: must be a version like 1.2.3, got '${v}'`, 2);
      }
      if (o.major !== undefined && !/^\d+$/.test(o.major)) throw new CliError(`--major: must be a whole number, got '${o.major}'`, 2);
      const now = Date.now();
      try {
        const { key, claims } = issue.issueLicense({
          signingKey,
          issuedTo: o.to,
          grants: o.grants.split(',').map((g) => g.trim()).filter(Boolean),
          majorVersion: o.major !== undefined ? Number(o.major) : semver.majorOf(VERSION),
          now,
          expiresAt: o.expires === undefined ? undefined : parseExpiry(o.expires, now),
          minVersion: o.minVersion,
          maxVersion: o.maxVersion,
        });
        // A misspelt grant signs a key that loads nothing: said, not refused (a newer svc may know it).
        const known = features.KNOWN_GRANTS;
        for (const grant of claims.grants.filter((g) => !known.includes(g))) {
          if (!ctx.json()) process.stderr.write(`warning: grant '${grant}' names no plugin this svc knows (${known.join(', ')}): svcd loads nothing for it\n`);
        }
        if (claims.expires_at !== undefined && claims.expires_at * 1000 <= now && !ctx.json()) {
          process.stderr.write(`warning: the license expired at ${timestamp(claims.expires_at * 1000)} already: svcd refuses it unless [license].retain_grants_after_expiry = true\n`);
        }
        ctx.print(ctx.json() ? JSON.stringify({ key, claims }) : key);
      } catch (err) {
        throw new CliError((err as Error).message.replace(/^malformed license key: /, ''), 2);
      }
    });

  cmd
    .command('inspect <key>')
    .description('decode a license key and verify it against the release key (and --trusted-keys); exit 1 when it does not verify')
    .option('--trusted-keys <file>', 'also trust the public keys in this file')
    .action(async (key: string, o: { trustedKeys?: string }) => {
      const { verify, decode, trusted } = await license();
      const text = key === '-' ? readFileSync(0, 'utf8') : key;
      let decoded;
      try {
        decoded = decode.decodeLicense(text);
      } catch (err) {
        throw new CliError((err as Error).message);
      }
      let verdict: string;
      let ok = true;
      try {
        const v = verify.verifyLicense(text, { trusted: trusted.loadTrustedKeys(o.trustedKeys ? resolve(o.trustedKeys) : null), now: Date.now(), version: VERSION, retainGrantsAfterExpiry: false });
        verdict = `valid for svc ${VERSION} (signed by ${v.signer.origin}, key ${v.signer.id})`;
      } catch (err) {
        ok = false;
        verdict = `does not verify here: ${(err as Error).message}`;
      }
      const c = decoded.claims;
      if (ctx.json()) ctx.print(JSON.stringify({ claims: c, valid: ok, verdict }, null, 2));
      else ctx.print(describeClaims(c, verdict));
      if (!ok) process.exitCode = 1;
    });

  cmd
    .command('show')
    .description("the daemon's license (GET /api/v1/system/license)")
    .action(async () => {
      const info = await ctx.client().get<Record<string, unknown> & { grants: string[]; features: string[]; plugin_versions: Record<string, string> }>('/api/v1/system/license');
      if (ctx.json()) return ctx.print(JSON.stringify(info, null, 2));
      const rows: [string, string][] = [
        ['license_id', String(info.license_id)],
        ['issued_to', String(info.issued_to)],
        ['issued_at', timestamp(Number(info.issued_at) * 1000)],
        ['expires_at', info.expires_at === undefined ? 'never (perpetual)' : `${timestamp(Number(info.expires_at) * 1000)}${info.expired ? ' (expired; a restart refuses it unless retain_grants_after_expiry = true)' : ` (${timeLeft(Number(info.expires_at) * 1000 - Date.now())})`}`],
        ['major_version', String(info.major_version)],
        ['grants', info.grants.join(', ')],
        ['features', info.features.join(', ')],
        ['plugins', Object.entries(info.plugin_versions).map(([n, v]) => `${n} ${v}`).join(', ') || 'none loaded'],
      ];
      ctx.print(table(['FIELD', 'VALUE'], rows));
    });
}

function describeClaims(c: { license_id: string; issued_to: string; issued_at: number; major_version: number; grants: string[]; expires_at?: number; min_version?: string; max_version?: string; key_id: string }, verdict: string): string {
  const range = c.min_version || c.max_version ? `${c.min_version ?? 'any'} to ${c.max_version ?? 'any'}` : 'any';
  return table(['FIELD', 'VALUE'], [
    ['license_id', c.license_id],
    ['issued_to', c.issued_to],
    ['issued_at', timestamp(c.issued_at * 1000)],
    ['expires_at', c.expires_at === undefined ? 'never (perpetual)' : timestamp(c.expires_at * 1000)],
    ['major_version', String(c.major_version)],
    ['versions', range],
    ['grants', c.grants.join(', ')],
    ['signed_by', `key ${c.key_id}`],
    ['verdict', verdict],
  ]);
}

/** Unix seconds from `YYYY-MM-DD`, an ISO date-time, Unix seconds, or `<N>d` from now. */
export function parseExpiry(text: string, now: number): number {
  const days = /^(\d+)d$/.exec(text);
  if (days) return Math.floor(now / 1000) + Number(days[1]) * 86400;
  if (/^\d{9,}$/.test(text)) return Number(text);
  if (/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(text)) {
    const ms = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text);
    if (!Number.isNaN(ms)) return Math.floor(ms / 1000);
  }
  throw new CliError(`--expires: expected YYYY-MM-DD, an ISO date-time, Unix seconds or <N>d, got '${text}'`, 2);
}

/** `in 12 days`, `in 5 hours`: how long a license has left, as `svc license show` gives it. */
export function timeLeft(ms: number): string {
  const hours = Math.floor(ms / 3_600_000);
  if (hours < 48) return hours < 1 ? 'in less than an hour' : `in ${hours} hour${hours === 1 ? '' : 's'}`;
  return `in ${Math.floor(hours / 24)} days`;
}
