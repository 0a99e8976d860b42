import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';

/** A public key that verifies licenses, with its fingerprint and where it came from. */
export interface TrustedKey {
  key: KeyObject;
  /** First 16 hex digits of the SHA-256 of the raw 32-byte Ed25519 key. */
  id: string;
  /** `release key` or `<file>:<line>`. */
  origin: string;
}

/** The first word of a public key line: `svc-license-ed25519 <base64url key> [comment]`. */
export const PUBLIC_KEY_TYPE = 'svc-license-ed25519';

export function rawPublicKey(key: KeyObject): Buffer {
  const jwk = key.export({ format: 'jwk' });
  if (jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string') throw new TypeError('not an Ed25519 key');
  return Buffer.from(jwk.x, 'base64url');
}

export function keyId(publicKey: KeyObject): string {
  return createHash('sha256').update(rawPublicKey(publicKey)).digest('hex').slice(0, 16);
}

/** One line of a trusted-keys file for this public key. */
export function publicKeyLine(publicKey: KeyObject, comment = ''): string {
  return `${PUBLIC_KEY_TYPE} ${rawPublicKey(publicKey).toString('base64url')}${comment ? ` ${comment}` : ''}`;
}

/** Parses the base64url part of a public key line; throws with a reason. */
export function publicKeyFromText(base64url: string): KeyObject {
  if (!/^[A-Za-z0-9_-]{43}$/.test(base64url)) throw new Error('the key must be 43 base64url characters (32 bytes)');
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: base64url }, format: 'jwk' });
}

/**
 * Parses a trusted-keys file: one `svc-license-ed25519 <key> [comment]` per line; blank lines
 * and `#` comments are skipped. Throws `<file>:<line>: <why>`.
 */
export function parsePublicKeys(text: string, file: string): TrustedKey[] {
  const keys: TrustedKey[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const [type, value] = line.split(/\s+/);
    const where = `${file}:${i + 1}`;
    if (type !== PUBLIC_KEY_TYPE || value === undefined) throw new Error(`${where}: expected '${PUBLIC_KEY_TYPE} <key> [comment]'`);
    try {
      const key = publicKeyFromText(value);
      keys.push({ key, id: keyId(key), origin: where });
    } catch (err) {
      throw new Error(`${where}: ${(err as Error).message}`);
    }
  });
  return keys;
}

/** A new Ed25519 signing key pair: the private key as PKCS#8 PEM, the public key as a line. */
export function generateSigningKey(comment: string): { privatePem: string; publicLine: string; id: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicLine: publicKeyLine(publicKey, comment),
    id: keyId(publicKey),
  };
}

/** Reads a PKCS#8 PEM Ed25519 private key; throws with a reason. */
export function signingKeyFromPem(pem: string): KeyObject {
  const key = createPrivateKey(pem);
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`expected an Ed25519 key, got ${key.asymmetricKeyType ?? 'a symmetric key'}`);
  return key;
}
