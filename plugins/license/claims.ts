import { isVersion } from './semver.js';
import { malformed } from './license-error.js';

/** The signed claims of a license key (docs/plugins.md, "License keys"). */
export interface LicenseClaims {
  /** UUID of this license. */
  license_id: string;
  /** Who it is for (a person or organization). */
  issued_to: string;
  /** Unix seconds. */
  issued_at: number;
  /** The svc major version it is for; a daemon of another major refuses it. */
  major_version: number;
  /** Plugins it allows: security, notify, isolation, ui. */
  grants: string[];
  /** Unix seconds; absent = perpetual. */
  expires_at?: number;
  /** The daemon versions it is valid for, inclusive; each end optional. */
  min_version?: string;
  max_version?: string;
  /** Fingerprint of the public key that verifies it (keys.ts), so an unknown signer is named. */
  key_id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const GRANT = /^[a-z][a-z0-9_-]{0,31}$/;
const KEY_ID = /^[0-9a-f]{16}$/;
/** 9999-12-31T23:59:59Z: beyond it a date cannot be shown (JavaScript dates end in the year 275760). */
const MAX_SECONDS = 253_402_300_799;
const KNOWN = new Set(['license_id', 'issued_to', 'issued_at', 'major_version', 'grants', 'expires_at', 'min_version', 'max_version', 'key_id']);

function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) < 0x20 || text.charCodeAt(i) === 0x7f) return true;
  return false;
}

/**
 * Checks the shape of decoded claims; throws a `malformed` LicenseError naming the claim.
 * Unknown claims are refused too: a claim this svcd cannot honour must not be ignored silently.
 */
export function parseClaims(value: unknown): LicenseClaims {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw malformed('claims must be a JSON object');
  const c = value as Record<string, unknown>;
  for (const key of Object.keys(c)) if (!KNOWN.has(key)) throw malformed(`unknown claim ${key}`);
  const text = (key: string, max: number) => {
    const v = c[key];
    if (typeof v !== 'string' || v.length === 0 || v.length > max || hasControl(v)) throw malformed(`${key}: must be a string of 1 to ${max} characters without control characters`);
    return v;
  };
  const whole = (key: string, max: number, what: string) => {
    const v = c[key];
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0 || v > max) throw malformed(`${key}: must be ${what}`);
    return v;
  };
  const seconds = (key: string) => whole(key, MAX_SECONDS, `Unix seconds (a whole number from 0 to ${MAX_SECONDS}, 9999-12-31)`);
  const version = (key: string) => {
    const v = text(key, 64);
    if (!isVersion(v)) throw malformed(`${key}: must be a version like 1.2.3, got '${v}'`);
    return v;
  };
  const claims: LicenseClaims = {
    license_id: text('license_id', 36),
    issued_to: text('issued_to', 200),
    issued_at: seconds('issued_at'),
    major_version: whole('major_version', Number.MAX_SAFE_INTEGER, 'a whole number (the svc major version)'),
    grants: [],
    key_id: text('key_id', 16),
  };
  if (!UUID.test(claims.license_id)) throw malformed(`license_id: must be a lowercase UUID`);
  if (!KEY_ID.test(claims.key_id)) throw malformed('key_id: must be 16 lowercase hex digits');
  const grants = c.grants;
  if (!Array.isArray(grants) || grants.length === 0 || !grants.every((g) => typeof g === 'string' && GRANT.test(g))) {
    throw malformed('grants: must be a non-empty list of lowercase names such as security, notify');
  }
  claims.grants = [...new Set(grants as string[])];
  if (c.expires_at !== undefined) claims.expires_at = seconds('expires_at');
  if (c.min_version !== undefined) claims.min_version = version('min_version');
  if (c.max_version !== undefined) claims.max_version = version('max_version');
  return claims;
}
