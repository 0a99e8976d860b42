import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { keyId, parsePublicKeys, publicKeyFromText, type TrustedKey } from './keys.js';
import { RELEASE_PUBLIC_KEY } from './release-key.js';

/** The release key compiled in. */
export function releaseKey(): TrustedKey {
  const key = publicKeyFromText(RELEASE_PUBLIC_KEY.split(' ')[1] ?? '');
  return { key, id: keyId(key), origin: 'release key' };
}

/** The path of `[license].trusted_keys` ('' = none); relative paths resolve under the root. */
export function trustedKeysPath(root: string, setting: string): string | null {
  if (setting === '') return null;
  return isAbsolute(setting) ? setting : resolve(root, setting);
}

/** The release key plus the keys in `file`. Throws with the file (and line) when unreadable. */
export function loadTrustedKeys(file: string | null): TrustedKey[] {
  if (file === null) return [releaseKey()];
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`[license].trusted_keys: cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  return [releaseKey(), ...parsePublicKeys(text, file)];
}
