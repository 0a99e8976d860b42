import { isAbsolute, resolve } from 'node:path';

/** One `[[stacks.git]]` entry of conf/svc.toml (docs/gitops.md): a git repository as a stack source. */
export interface GitSourceConfig {
  /** Unique name; the programs it applies carry `source = "git:<name>"`. */
  name: string;
  /** https://, ssh://, user@host:path, file:// or a local path (resolved under $SVC_ROOT). */
  url: string;
  /** The ref followed: `refs/heads/<branch>` or `refs/tags/<tag>`. */
  ref: { kind: 'branch' | 'tag'; name: string };
  /** Folder inside the repository holding the stacks ("" = the top). */
  path: string;
  interval_secs: number;
  /** A file holding an HTTPS token (sent as a Bearer header), never the token itself. */
  token_file: string;
  /** An SSH private key for ssh:// URLs. */
  ssh_key: string;
  /** When set, only commits signed by a key in this allowed-signers file are applied. */
  allowed_signers: string;
  /** This host's overlay folder is `hosts/<host>/` (default: `[stacks] host`, else the OS host name). */
  host: string;
  /** API/CLI changes to this source's programs are kept until the next commit instead of refused. */
  allow_drift: boolean;
}

const KEYS = new Set(['name', 'url', 'branch', 'tag', 'path', 'interval_secs', 'token_file', 'ssh_key', 'allowed_signers', 'host', 'allow_drift']);
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/**
 * Checks the `stacks.git` array. `where(i, key)` names the entry and key in messages (file:line);
 * paths resolve under `root`; `defaultHost` is `[stacks] host` or the OS host name.
 */
export function parseGitSources(raw: unknown, ctx: { root: string; defaultHost: string; where: (index: number, key?: string) => string }): GitSourceConfig[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) throw new Error(`${ctx.where(0)}: stacks.git must be an array of tables ([[stacks.git]])`);
  const seen = new Set<string>();
  return raw.map((entry: unknown, i) => {
    const fail = (key: string | undefined, problem: string): never => {
      throw new Error(`${ctx.where(i, key)}: stacks.git[${i}]${key ? `.${key}` : ''}: ${problem}`);
    };
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return fail(undefined, 'must be a table');
    const e = entry as Record<string, unknown>;
    for (const key of Object.keys(e)) if (!KEYS.has(key)) fail(key, `unknown key (known: ${[...KEYS].join(', ')})`);
    const str = (key: string, fallback: string): string => {
      const v = e[key] ?? fallback;
      return typeof v === 'string' ? v : fail(key, 'must be a string');
    };
    const name = str('name', '');
    if (!NAME.test(name)) fail('name', 'required: letters, digits, "_", "." or "-" (at most 64)');
    if (seen.has(name)) fail('name', `duplicate source name '${name}'`);
    seen.add(name);
    const url = str('url', '');
    if (url === '') fail('url', 'required (https://, ssh://, file:// or a local path)');
    if (/^[a-z][a-z0-9+.-]*:\/\/[^/]*:[^/@]*@/i.test(url)) fail('url', 'must not carry a password; use token_file');
    if (url.startsWith('-')) fail('url', "must not start with '-' (git would read it as an option)");
    if (e.branch !== undefined && e.tag !== undefined) fail('tag', 'give branch or tag, not both');
    const ref = e.tag !== undefined ? { kind: 'tag' as const, name: str('tag', '') } : { kind: 'branch' as const, name: str('branch', 'main') };
    if (!/^[A-Za-z0-9][A-Za-z0-9_./-]*$/.test(ref.name) || ref.name.includes('..')) fail(ref.kind, 'not a valid ref name');
    const path = str('path', '').replace(/^\/+|\/+$/g, '');
    if (path.split('/').includes('..')) fail('path', 'must stay inside the repository');
    const interval = e.interval_secs ?? 60;
    const n = typeof interval === 'bigint' ? Number(interval) : interval;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 86400) fail('interval_secs', 'must be an integer from 1 to 86400');
    if (e.allow_drift !== undefined && typeof e.allow_drift !== 'boolean') fail('allow_drift', 'must be true or false');
    const file = (key: string) => {
      const v = str(key, '');
      return v === '' ? '' : isAbsolute(v) ? v : resolve(ctx.root, v);
    };
    const host = str('host', ctx.defaultHost);
    if (!/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(host)) fail('host', 'must be a host name (letters, digits, "_", "." or "-")');
    return {
      name,
      url: isLocalPath(url) ? resolve(ctx.root, url) : url,
      ref,
      path,
      interval_secs: n as number,
      token_file: file('token_file'),
      ssh_key: file('ssh_key'),
      allowed_signers: file('allowed_signers'),
      host,
      allow_drift: e.allow_drift === true,
    };
  });
}

/**
 * A local path, as git decides it: no colon, or a slash before the first colon. Anything else
 * is a URL (`https://…`) or scp-like (`git@host:path`, `host:path` with the user from
 * ~/.ssh/config) and is left as written.
 */
function isLocalPath(url: string): boolean {
  const colon = url.indexOf(':');
  const slash = url.indexOf('/');
  return colon === -1 || (slash !== -1 && slash < colon);
}

/** The user part of an http(s) URL (`https://TOKEN@host/…`), which forges accept as a token, or null. */
function httpUserInfo(url: string): string | null {
  return /^https?:\/\/([^/@]+)@/i.exec(url)?.[1] ?? null;
}

/**
 * A source URL as svcd shows it (status, events, messages): an http(s) URL's user part, which
 * forges take as an access token (`https://ghp_…@github.com/…`), is `***`; ssh user names
 * (`git@host:path`) are not secrets and stay.
 */
export function shownUrl(url: string): string {
  return withoutUserInfo(url, url);
}

/** `text` (git's own messages quote the URL) with the source URL's http(s) user part as `***`. */
export function withoutUserInfo(text: string, url: string): string {
  const user = httpUserInfo(url);
  return user === null ? text : text.split(`${user}@`).join('***@');
}
