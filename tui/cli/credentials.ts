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

function readAll(file: string): Record<string, string> {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}

export function savedToken(url: string, file = credentialsFile()): string | undefined {
  return readAll(file)[url];
}

export function saveToken(url: string, token: string | null, file = credentialsFile()): void {
  const all = readAll(file);
  if (token === null) delete all[url];
  else all[url] = token;
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}
