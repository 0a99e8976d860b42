import { mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../../state/atomic-file.js';
import { CliError } from './errors.js';

/**
 * Credentials saved by `svc login`, keyed by daemon URL, in
 * `$XDG_CONFIG_HOME/svc/credentials.json` (default `~/.config/svc/`), readable by the user only.
 */
export function credentialsFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'svc', 'credentials.json');
}

/**
 * One daemon however its address is written: `host:port`, `http://host:port` and
 * `http://HOST:port/` are one key (`http://host:port`), so a login is found under any of them.
 * An address that does not parse is its own key (the client refuses it anyway).
 */
export function credentialKey(url: string): string {
  if (url.startsWith('unix:')) return `unix:${url.slice('unix:'.length).replace(/^\/\//, '')}`;
  try {
    const u = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `http://${url}`);
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return url;
  }
}

/** What the file holds; absent is empty. `strict`: a file that cannot be read or parsed throws (a save must not drop the other daemons' entries). */
function readAll(file: string, strict = false): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || !strict) return {};
    throw new CliError(`${file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? String(err)}); nothing was saved`);
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, string>;
  } catch {
    // below
  }
  if (!strict) return {};
  throw new CliError(`${file}: not the JSON object svc login writes; fix or remove it (saving would drop the credentials of other daemons in it); nothing was saved`);
}

/** The saved credential for `url`; entries saved before keys were normalised are found too. */
export function savedToken(url: string, file = credentialsFile()): string | undefined {
  const key = credentialKey(url);
  const all = readAll(file);
  return all[key] ?? Object.entries(all).find(([saved]) => credentialKey(saved) === key)?.[1];
}

/**
 * Saves (or with null forgets) the credential for `url`. The file is replaced, never written
 * through: a link at its name is not followed, and the secret is never in a file others may read.
 */
export async function saveToken(url: string, token: string | null, file = credentialsFile()): Promise<void> {
  const key = credentialKey(url);
  const all = Object.fromEntries(Object.entries(readAll(file, true)).filter(([saved]) => credentialKey(saved) !== key));
  if (token !== null) all[key] = token;
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  await writeFileAtomic(file, `${JSON.stringify(all, null, 2)}\n`, 0o600);
}
