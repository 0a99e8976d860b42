import { createPublicKey, randomUUID, type KeyObject } from 'node:crypto';
import { parseClaims, type LicenseClaims } from './claims.js';
import { keyId } from './keys.js';
import { encodeLicense } from './license-key.js';
import { compareVersions, majorOf } from './semver.js';

export interface IssueRequest {
  signingKey: KeyObject;
  issuedTo: string;
  grants: string[];
  majorVersion: number;
  /** Unix milliseconds of issue (the caller's clock). */
  now: number;
  /** Unix seconds; absent = perpetual. */
  expiresAt?: number;
  minVersion?: string;
  maxVersion?: string;
  licenseId?: string;
}

/**
 * Signs a new license key. The claims are checked with the same parser that verification uses,
 * and a version range no svcd of `major_version` falls in is refused: such a key never verifies.
 */
export function issueLicense(req: IssueRequest): { key: string; claims: LicenseClaims } {
  const claims = parseClaims({
    license_id: req.licenseId ?? randomUUID(),
    issued_to: req.issuedTo,
    issued_at: Math.floor(req.now / 1000),
    major_version: req.majorVersion,
    grants: req.grants,
    ...(req.expiresAt !== undefined ? { expires_at: req.expiresAt } : {}),
    ...(req.minVersion !== undefined ? { min_version: req.minVersion } : {}),
    ...(req.maxVersion !== undefined ? { max_version: req.maxVersion } : {}),
    key_id: keyId(createPublicKey(req.signingKey)),
  });
  const { min_version: min, max_version: max, major_version: major } = claims;
  if (min && max && compareVersions(min, max) > 0) throw new Error(`min_version ${min} is after max_version ${max}: the license would verify for no svcd`);
  if (min && majorOf(min) > major) throw new Error(`min_version ${min} is after every ${major}.x version (major_version ${major}): the license would verify for no svcd`);
  if (max && majorOf(max) < major) throw new Error(`max_version ${max} is before every ${major}.x version (major_version ${major}): the license would verify for no svcd`);
  return { key: encodeLicense(claims, req.signingKey), claims };
}
