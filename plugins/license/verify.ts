import { verify } from 'node:crypto';
import type { LicenseClaims } from './claims.js';
import { decodeLicense } from './license-key.js';
import { LicenseError } from './license-error.js';
import type { TrustedKey } from './keys.js';
import { compareVersions, majorOf } from './semver.js';

export interface VerifyOptions {
  trusted: TrustedKey[];
  /** Unix milliseconds (the injected clock). */
  now: number;
  /** The daemon's version. */
  version: string;
  /** `[license].retain_grants_after_expiry`: an expired license keeps its grants. */
  retainGrantsAfterExpiry: boolean;
}

/** A license that verified. `expired` is true only when grants are retained after expiry. */
export interface VerifiedLicense {
  claims: LicenseClaims;
  expired: boolean;
  signer: TrustedKey;
}

/**
 * Verifies a key, in this order: its shape, a trusted signer, the signature, the major
 * version, the daemon version range, expiry. Throws a LicenseError saying why it fails.
 */
export function verifyLicense(key: string, opts: VerifyOptions): VerifiedLicense {
  const { claims, signed, signature } = decodeLicense(key);
  const signer = opts.trusted.find((k) => k.id === claims.key_id);
  if (!signer) throw new LicenseError('untrusted_signer', `untrusted signer: the license is signed by key ${claims.key_id}, which is neither the release key nor in [license].trusted_keys`);
  if (!verify(null, Buffer.from(signed), signer.key, signature)) {
    throw new LicenseError('bad_signature', `bad signature: the license does not verify with key ${signer.id} (${signer.origin}); it was altered or signed by another key`);
  }
  const major = majorOf(opts.version);
  if (claims.major_version !== major) {
    throw new LicenseError('major_version', `major version mismatch: the license is for svc ${claims.major_version}.x, this svcd is ${opts.version}`);
  }
  if (claims.min_version && compareVersions(opts.version, claims.min_version) < 0) {
    throw new LicenseError('version_range', `version out of range: the license is valid from svc ${claims.min_version}, this svcd is ${opts.version}`);
  }
  if (claims.max_version && compareVersions(opts.version, claims.max_version) > 0) {
    throw new LicenseError('version_range', `version out of range: the license is valid up to svc ${claims.max_version}, this svcd is ${opts.version}`);
  }
  const expired = claims.expires_at !== undefined && claims.expires_at * 1000 <= opts.now;
  if (expired && !opts.retainGrantsAfterExpiry) {
    throw new LicenseError('expired', `expired: the license expired at ${new Date((claims.expires_at ?? 0) * 1000).toISOString()} (set [license].retain_grants_after_expiry = true to keep its grants)`);
  }
  return { claims, expired, signer };
}
