import type { Context } from 'koa';
import type { ProgramConfig } from '../state/program.js';
import { principalOf } from './auth/middleware.js';
import { allows } from '../state/auth/roles.js';
import { REDACTED, redactUrl } from '../state/redact-url.js';

/**
 * What viewers and operators do not see (spec: "secrets redacted"; docs/security.md): the
 * values of `env`, the password and query values of URLs in `health_check.url` and
 * `artifact.source`, and those env values where they appear in log lines. Names, commands and
 * arguments stay visible: secrets belong in `env` or `env_file`, not in `args`.
 */

/** Env values shorter than this are not masked in logs: masking "1" or "true" would blank them. */
export const MIN_MASKED_LENGTH = 6;

export function seesSecrets(ctx: Context): boolean {
  return allows(principalOf(ctx).role, 'config.plaintext');
}

export function redactConfig(config: ProgramConfig): ProgramConfig {
  const out: ProgramConfig = { ...config };
  if (config.env) out.env = Object.fromEntries(Object.keys(config.env).map((k) => [k, REDACTED]));
  if (config.health_check?.url) out.health_check = { ...config.health_check, url: redactUrl(config.health_check.url) };
  if (config.artifact?.source) out.artifact = { ...config.artifact, source: redactUrl(config.artifact.source) };
  return out;
}

/** The values to mask in a program's log lines for a reader who does not see secrets. */
export function secretValues(config: ProgramConfig | undefined): string[] {
  const values = Object.values(config?.env ?? {}).filter((v) => v.length >= MIN_MASKED_LENGTH);
  return [...new Set(values)].sort((a, b) => b.length - a.length); // longest first: no partial masks
}

export function maskSecrets(text: string, values: string[]): string {
  let out = text;
  for (const v of values) if (out.includes(v)) out = out.split(v).join(REDACTED);
  return out;
}
