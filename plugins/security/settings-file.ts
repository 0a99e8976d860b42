import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../../state/atomic-file.js';

/** `data/auth_settings.json` (spec, Admin secret state). */
export interface AuthSettings {
  /** The admin secret is refused as a Bearer credential. */
  secret_disabled: boolean;
  /** Unix seconds of the last change, and who (token id or `automatic`). */
  changed_at?: number;
  changed_by?: string;
}

export const DEFAULT_SETTINGS: AuthSettings = { secret_disabled: false };

/** A missing file means the defaults; a malformed one refuses start like a corrupt tokens file. */
export async function readSettings(file: string): Promise<AuthSettings> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { ...DEFAULT_SETTINGS };
    throw new Error(`${file}: cannot read: ${(err as Error).message}`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file} is corrupt (not JSON: ${(err as Error).message}); refusing to start: fix or remove it`);
  }
  if (typeof (doc as AuthSettings | null)?.secret_disabled !== 'boolean') throw new Error(`${file} is corrupt (secret_disabled: must be true or false); refusing to start: fix or remove it`);
  return doc as AuthSettings;
}

export async function writeSettings(file: string, settings: AuthSettings): Promise<void> {
  await writeFileAtomic(file, `${JSON.stringify(settings, null, 2)}\n`);
}
