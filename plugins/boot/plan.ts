import type { LicenseClaims } from '../license/claims.js';
import { PLUGIN_CATALOG, SECURITY, type PluginSpec } from '../host/catalog.js';
import type { PluginFile } from '../host/discover.js';

/** What verifying the configured key showed. */
export type LicenseStatus =
  | { kind: 'none' }
  | { kind: 'valid'; claims: LicenseClaims; expired: boolean; source: string }
  | { kind: 'invalid'; reason: string; source: string };

/** Everything the start-up decision depends on (gathered by boot.ts). */
export interface StartupFacts {
  license: LicenseStatus;
  /** `[license].strict` or SVC_LICENSE_STRICT=1. */
  strict: boolean;
  authSecret: boolean;
  /** A TCP bind on a non-loopback address. */
  networkBind: boolean;
  pluginDir: string;
  present: PluginFile[];
  /** The plugins this svcd knows (default: plugins/host/catalog.ts). */
  catalog?: Readonly<Record<string, PluginSpec>>;
  /** Unix ms now: a license that expires soon is warned about. */
  now?: number;
}

/** A license expiring within this many days is named in a start-up warning. */
export const EXPIRY_WARNING_DAYS = 14;

export type Mode = 'open' | 'secret' | 'licensed';

export type StartupPlan =
  | { refuse: string }
  | {
      mode: Mode;
      /** Libraries to load, security first. */
      load: PluginFile[];
      skipped: { name: string; file: string; reason: string }[];
      warnings: string[];
    };

const SPEC_FAILURE = 'spec: License verification failure';

/**
 * The spec's two start-up tables as one pure function ("Licensed startup requirements" and
 * "License verification failure"). Requirements 2 and 4 are checked again when the security
 * library is actually loaded (boot.ts): here only its presence is known.
 */
export function planStartup(f: StartupFacts): StartupPlan {
  const names = f.present.map((p) => `${p.name}.so`).join(', ');
  if (f.license.kind === 'invalid') {
    const failed = `license verification failed (${f.license.reason})`;
    if (f.strict) return { refuse: `${failed} and strict mode is on ([license].strict or SVC_LICENSE_STRICT=1): refusing to start (${SPEC_FAILURE}: strict always refuses)` };
    if (f.present.length > 0) return { refuse: `${failed} and plugin libraries are present in ${f.pluginDir} (${names}): refusing to start rather than run without them (${SPEC_FAILURE}: plugins present)` };
    if (f.authSecret) return { refuse: `${failed} and [server].auth_secret is set: refusing to start; there is no fallback to open mode (${SPEC_FAILURE}: auth_secret set)` };
    if (f.networkBind) return { refuse: `${failed} and the API binds a non-loopback address: refusing to start (${SPEC_FAILURE}: non-loopback bind)` };
    return { mode: 'open', load: [], skipped: [], warnings: [`${failed}; running in open mode on loopback without plugins (${SPEC_FAILURE}: loopback, no plugins, no auth_secret)`] };
  }
  const base: Mode = f.authSecret ? 'secret' : 'open';
  if (f.license.kind === 'none') {
    const skipped = f.present.map((p) => ({ ...p, reason: 'no license is configured ([license].key or SVC_LICENSE)' }));
    return { mode: base, load: [], skipped, warnings: skipped.map((s) => `plugin ${s.file} not loaded: ${s.reason}`) };
  }
  const { claims, expired } = f.license;
  const warnings: string[] = [];
  if (expired) warnings.push(`the license expired at ${new Date((claims.expires_at ?? 0) * 1000).toISOString()}; its grants are kept because [license].retain_grants_after_expiry = true`);
  const daysLeft = claims.expires_at === undefined || f.now === undefined ? Infinity : (claims.expires_at * 1000 - f.now) / 86_400_000;
  if (!expired && daysLeft <= EXPIRY_WARNING_DAYS) {
    warnings.push(`the license expires at ${new Date(claims.expires_at! * 1000).toISOString()} (in ${daysLeft < 1 ? 'less than a day' : `${Math.floor(daysLeft)} days`}): put a renewed key in [license].key before then; a start after it refuses the plugins unless [license].retain_grants_after_expiry = true`);
  }
  if (!claims.grants.includes(SECURITY)) {
    return { refuse: `licensed startup requirement 1: the license grants ${claims.grants.join(', ')} but not security; a licensed svcd needs the security plugin` };
  }
  const security = f.present.find((p) => p.name === SECURITY);
  if (!security) {
    const partial = f.present.length > 0 ? ` (found only ${names}: a partial install)` : '';
    return { refuse: `licensed startup requirement 2: the security plugin library security.so is not in ${f.pluginDir}${partial}; install it with: svc plugins install` };
  }
  if (!f.authSecret) return { refuse: 'licensed startup requirement 3: [server].auth_secret must be set when the license verifies (it bootstraps the first Access Token)' };
  const load = [security];
  const skipped: { name: string; file: string; reason: string }[] = [];
  for (const p of f.present) {
    if (p.name === SECURITY) continue;
    const catalog = f.catalog ?? PLUGIN_CATALOG;
    const spec = Object.hasOwn(catalog, p.name) ? catalog[p.name] : undefined;
    if (!spec) skipped.push({ ...p, reason: `not a plugin this svcd knows` });
    else if (!claims.grants.includes(spec.grant)) skipped.push({ ...p, reason: `the license does not grant ${spec.grant}` });
    else load.push(p);
  }
  for (const s of skipped) warnings.push(`plugin ${s.file} not loaded: ${s.reason}`);
  return { mode: 'licensed', load, skipped, warnings };
}
