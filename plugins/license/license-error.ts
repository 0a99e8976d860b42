/** Why a license key does not verify; the codes are stable, the messages are for people. */
export type LicenseFailure = 'malformed' | 'untrusted_signer' | 'bad_signature' | 'major_version' | 'version_range' | 'expired';

export class LicenseError extends Error {
  override name = 'LicenseError';
  constructor(
    readonly code: LicenseFailure,
    message: string,
  ) {
    super(message);
  }
}

export const malformed = (message: string) => new LicenseError('malformed', `malformed license key: ${message}`);
