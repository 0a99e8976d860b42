import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { parse, TomlError } from 'smol-toml';
import { CONFIG_KEYS, type KeySpec, type SvcConfig } from './keys.js';
import { parseGitSources } from '../stacks/git/source-config.js';
import { checkCredential, MAX_CREDENTIAL } from '../api/auth/bearer.js';

/** A configuration problem; the message is ready to print (file, key and line included). */
export class ConfigError extends Error {
  override name = 'ConfigError';
}


/**
 * Reads `$root/conf/svc.toml` (absent file: defaults, unless `mustExist`, for a file named on the
 * command line) and returns the checked configuration.
 */
export function loadConfig(root: string, file = join(root, 'conf', 'svc.toml'), opts: { mustExist?: boolean } = {}): SvcConfig {
  let text: string | null = null;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || opts.mustExist) throw new ConfigError(`${file}: cannot read: ${(err as Error).message}`);
  }
  const raw = text === null ? {} : parseToml(file, text);
  return resolveConfig(raw, { root, file: text === null ? null : file, text: text ?? '' });
}

function parseToml(file: string, text: string): Record<string, unknown> {
  try {
    return parse(text);
  } catch (err) {
    if (err instanceof TomlError) throw new ConfigError(`${file}:${err.line}:${err.column}: ${firstLine(err.message)}`);
    throw err;
  }
}

function firstLine(message: string): string {
  return message.split('\n')[0] ?? message;
}

interface Source {
  root: string;
  file: string | null;
  text: string;
}

function resolveConfig(raw: Record<string, unknown>, src: Source): SvcConfig {
  const where = (section: string, key?: string) => {
    const line = findLine(src.text, section, key);
    return `${src.file ?? 'config'}${line ? `:${line}` : ''}`;
  };
  const out: Record<string, Record<string, unknown>> = {};
  for (const [section, value] of Object.entries(raw)) {
    if (!(section in CONFIG_KEYS)) throw new ConfigError(`${where(section)}: unknown section [${section}]`);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new ConfigError(`${where(section)}: ${section} must be a table`);
    }
  }
  for (const [section, keys] of Object.entries(CONFIG_KEYS) as [string, Record<string, KeySpec>][]) {
    const given = (raw[section] ?? {}) as Record<string, unknown>;
    for (const key of Object.keys(given)) {
      if (section === 'stacks' && key === 'git') continue; // [[stacks.git]]: parsed below
      if (!(key in keys)) throw new ConfigError(`${where(section, key)}: unknown key ${section}.${key}`);
    }
    out[section] = {};
    for (const [key, spec] of Object.entries(keys)) {
      const value = key in given ? given[key] : spec.default;
      const problem = checkValue(spec, value) ?? (section === 'server' ? checkServerKey(key, value as string) : null);
      if (problem) throw new ConfigError(`${where(section, key)}: ${section}.${key}: ${problem}`);
      const resolves = spec.type === 'path' || (spec.type === 'optional-path' && value !== '');
      out[section][key] = resolves ? absolute(src.root, value as string) : value;
    }
  }
  const config = { ...(out as unknown as SvcConfig), root: src.root, file: src.file };
  try {
    const whereGit = (index: number, key?: string) => `${src.file ?? 'config'}${gitLine(src.text, index, key)}`;
    config.git = parseGitSources((raw.stacks as Record<string, unknown> | undefined)?.git, { root: src.root, defaultHost: config.stacks.host || hostname(), where: whereGit });
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
  return config;
}

/** `:line` of key `key` in the index-th `[[stacks.git]]` table, else of its header; "" when unknown. */
function gitLine(text: string, index: number, key?: string): string {
  const lines = text.split('\n');
  let seen = -1;
  let header = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] ?? '').trim();
    if (/^\[\[\s*stacks\.git\s*\]\]/.test(line)) {
      seen++;
      if (seen === index) header = i + 1;
      continue;
    }
    if (/^\[/.test(line)) {
      if (seen === index) break;
      continue;
    }
    if (seen === index && key && new RegExp(`^${key}\\s*=`).test(line)) return `:${i + 1}`;
  }
  return header > 0 ? `:${header}` : '';
}

function checkValue(spec: KeySpec, value: unknown): string | null {
  switch (spec.type) {
    case 'boolean':
      return typeof value === 'boolean' ? null : 'must be true or false';
    case 'string':
      return typeof value === 'string' ? null : 'must be a string';
    case 'path':
      return typeof value === 'string' && value.length > 0 ? null : 'must be a non-empty path';
    case 'optional-path':
      return typeof value === 'string' ? null : 'must be a path (or "" for none)';
    case 'integer': {
      const n = typeof value === 'bigint' ? Number(value) : value;
      if (typeof n !== 'number' || !Number.isInteger(n)) return 'must be an integer';
      if (spec.min !== undefined && n < spec.min) return `must be at least ${spec.min}`;
      if (spec.max !== undefined && n > spec.max) return `must be at most ${spec.max}`;
      return null;
    }
  }
}

function checkServerKey(key: string, value: string): string | null {
  if (key === 'auth_secret') return checkSecret(value);
  // Node's listen reads "" as every interface, and a lookup of "" answers no address at all.
  if (key === 'host' && value.trim() === '') return 'must be an address or a host name (127.0.0.1 for this host only, 0.0.0.0 for every interface)';
  return null;
}

/**
 * An admin secret no Bearer credential can carry would lock every client out (api/auth/bearer.ts
 * drops the spaces around a credential and refuses control characters and more than
 * MAX_CREDENTIAL characters): refused here, with the reason, instead of at every request.
 */
function checkSecret(secret: string): string | null {
  if (secret === '') return null;
  if (secret.length > MAX_CREDENTIAL) return `must be at most ${MAX_CREDENTIAL} characters (a longer Bearer credential is refused)`;
  if (checkCredential(secret) === null) return 'must not hold control characters (a Bearer credential cannot carry them)';
  if (/^[ \t]|[ \t]$/.test(secret)) return 'must not begin or end with a space (they are dropped around a Bearer credential, so it could never match)';
  return null;
}

/**
 * `<file>:<line>` of `[section] key` in the configuration that was read (`<file>` alone when the
 * key is not written there, `embedded defaults` without a file): for problems found after loading.
 */
export function keyLocation(config: Pick<SvcConfig, 'file'>, section: string, key: string): string {
  if (config.file === null) return 'embedded defaults';
  let text = '';
  try {
    text = readFileSync(config.file, 'utf8');
  } catch {
    // read a moment ago; without it the file alone is named
  }
  const line = findLine(text, section, key);
  return `${config.file}${line ? `:${line}` : ''}`;
}

function absolute(root: string, path: string): string {
  return isAbsolute(path) ? path : resolve(root, path);
}

/** Line number (1-based) of `key` inside `[section]`, or of the section header; 0 when unknown. */
function findLine(text: string, section: string, key?: string): number {
  const lines = text.split('\n');
  let current = '';
  let inline = 0; // `section = { … }`: the line of the table when the key is inside it
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] ?? '').trim();
    const header = /^\[\s*([^\]]+?)\s*\]/.exec(line);
    if (header) {
      current = header[1] ?? '';
      if (!key && current === section) return i + 1;
      if (key && current === `${section}.${key}`) return i + 1; // [server.tls]: unknown key server.tls
      continue;
    }
    const m = /^["']?([A-Za-z0-9_.-]+?)["']?\s*=/.exec(line);
    if (!m) continue;
    const name = m[1] ?? '';
    if (key && current === section && name === key) return i + 1;
    if (key && current === '' && name === `${section}.${key}`) return i + 1;
    if (key && current === '' && name === section && new RegExp(`[{,]\\s*["']?${key}["']?\\s*=`).test(line)) inline ||= i + 1;
    if (!key && current === '' && (name === section || name.startsWith(`${section}.`))) return i + 1;
  }
  return inline;
}
