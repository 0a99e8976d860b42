import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

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

function readAll(file: string): Record<string, string> {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/** The saved credential for `url`; entries saved before keys were normalised are found too. */
export function savedToken(url: string, file = credentialsFile()): string | undefined {
  const key = credentialKey(url);
  const all = readAll(file);
  return all[key] ?? Object.entries(all).find(([saved]) => credentialKey(saved) === key)?.[1];
}

export function saveToken(url: string, token: string | null, file = credentialsFile()): void {
  const key = credentialKey(url);
  const all = Object.fromEntries(Object.entries(readAll(file)).filter(([saved]) => credentialKey(saved) !== key));
  if (token !== null) all[key] = token;
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}
