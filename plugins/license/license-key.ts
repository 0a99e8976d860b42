import { sign, type KeyObject } from 'node:crypto';
import { parseClaims, type LicenseClaims } from './claims.js';
import { malformed } from './license-error.js';

/** The first part of every key: the format version. */
export const KEY_PREFIX = 'SVC1';

/** A key taken apart, its signature not yet checked. */
export interface DecodedLicense {
  claims: LicenseClaims;
  /** The signed text: `SVC1.<claims part>`. */
  signed: string;
  signature: Buffer;
}

/**
 * `SVC1.<base64url(claims JSON)>.<base64url(Ed25519 signature over "SVC1.<claims part>")>`.
 * Whitespace around the key (a pasted line) is ignored.
 */
export function encodeLicense(claims: LicenseClaims, signingKey: KeyObject): string {
  const signed = `${KEY_PREFIX}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  return `${signed}.${sign(null, Buffer.from(signed), signingKey).toString('base64url')}`;
}

/** Splits and parses a key; throws a `malformed` LicenseError saying which part is wrong. */
export function decodeLicense(key: string): DecodedLicense {
  const parts = key.trim().split('.');
  if (parts.length !== 3) throw malformed(`expected ${KEY_PREFIX}.<claims>.<signature> (3 parts separated by dots), got ${parts.length} part(s)`);
  const [prefix, body, sig] = parts as [string, string, string];
  if (prefix !== KEY_PREFIX) throw malformed(`unknown format '${prefix.slice(0, 16)}' (expected ${KEY_PREFIX})`);
  if (!/^[A-Za-z0-9_-]+$/.test(body)) throw malformed('the claims part is not base64url');
  if (!/^[A-Za-z0-9_-]{86}$/.test(sig)) throw malformed('the signature part is not 64 bytes of base64url');
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    throw malformed('the claims part is not JSON');
  }
  return { claims: parseClaims(json), signed: `${prefix}.${body}`, signature: Buffer.from(sig, 'base64url') };
}
