import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { ROLES, type AuthOutcome, type Authenticator, type Principal, type Role } from '../../state/auth/principal.js';
import { conflict, invalid, notFound, SvcError } from '../../state/errors.js';
import { Mutex } from '../../state/mutex.js';
import type { SecurityNative } from './native.js';
import { readSettings, writeSettings, type AuthSettings } from './settings-file.js';
import { readTokens, TOKEN_NAME, writeTokens, type TokenRecord } from './token-file.js';

/** A token as the API shows it: never the secret, never the digest. */
export type TokenView = Omit<TokenRecord, 'digest'>;
/** The answer to create and renew: the only time the secret is shown. */
export type IssuedToken = TokenView & { secret: string };

export interface TokenServiceOptions {
  native: SecurityNative;
  dataDir: string;
  /** `[server].auth_secret` (licensed start-up requires it). */
  authSecret: string;
  /** Unix milliseconds (the injected clock). */
  now: () => number;
}

/**
 * Access Tokens and the admin secret state of the security plugin. Records live in
 * `data/tokens.json` (digests only) and `data/auth_settings.json`, both replaced atomically;
 * every change is written first, then the plugin's credential table is reloaded, so a renewed
 * or revoked secret stops working before the response is sent. The credential decision itself
 * is the plugin's authenticate() (constant-time, in C).
 */
export class TokenService implements Authenticator {
  readonly mode = 'tokens' as const;
  private readonly mutex = new Mutex();
  private readonly secretDigest: Buffer;
  private readonly listeners = new Set<() => void>();
  /** What the start found and put right, for svcd's start-up warnings. */
  readonly startWarnings: string[] = [];

  private constructor(
    private readonly opts: TokenServiceOptions,
    private tokens: TokenRecord[],
    private settings: AuthSettings,
  ) {
    this.secretDigest = createHash('sha256').update(opts.authSecret).digest();
    this.reloadNative();
  }

  get tokensFile(): string {
    return join(this.opts.dataDir, 'tokens.json');
  }

  get settingsFile(): string {
    return join(this.opts.dataDir, 'auth_settings.json');
  }

  /**
   * Reads both files; throws (refusing start) when either is corrupt. A disabled admin secret
   * with no admin token left (tokens.json moved away or restored from before the admin tokens)
   * would lock everyone out: it is enabled again, as revoking the last admin token does.
   */
  static async open(opts: TokenServiceOptions): Promise<TokenService> {
    const tokens = await readTokens(join(opts.dataDir, 'tokens.json'));
    const settings = await readSettings(join(opts.dataDir, 'auth_settings.json'));
    const service = new TokenService(opts, tokens, settings);
    if (settings.secret_disabled && !tokens.some((t) => t.role === 'admin')) {
      await service.commit(tokens, { secret_disabled: false, changed_at: service.seconds(), changed_by: 'automatic: no admin token at start-up' });
      service.startWarnings.push(`the admin secret was disabled (${service.settingsFile}) but no admin Access Token exists: it is enabled again, or nobody could authenticate as an admin`);
    }
    return service;
  }

  authenticate(bearer: string): AuthOutcome {
    const verdict = this.opts.native.authenticate(bearer);
    switch (verdict.kind) {
      case 'secret':
        return { ok: true, principal: { kind: 'secret', role: 'admin' } };
      case 'secret_disabled':
        return { ok: false, reason: 'the admin secret is disabled (POST /api/v1/auth/secret/disable); authenticate with an Access Token' };
      case 'token': {
        const record = this.tokens.find((t) => t.id === verdict.id);
        if (!record) return { ok: false, reason: 'authentication failed: unknown token' };
        return { ok: true, principal: { kind: 'token', id: record.id, name: record.name, role: record.role } };
      }
      case 'none':
        return { ok: false, reason: 'authentication failed: the Bearer credential is neither the admin secret nor a valid Access Token' };
    }
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Admins see every token; others only their own. */
  list(p: Principal): TokenView[] {
    const visible = p.role === 'admin' ? this.tokens : this.tokens.filter((t) => p.kind === 'token' && t.id === p.id);
    return visible.map(view);
  }

  get secretDisabled(): boolean {
    return this.settings.secret_disabled;
  }

  get count(): { tokens: number; admins: number } {
    return { tokens: this.tokens.length, admins: this.tokens.filter((t) => t.role === 'admin').length };
  }

  async create(p: Principal, body: unknown): Promise<IssuedToken> {
    const { name, role } = parseCreate(body);
    return this.mutex.run(async () => {
      const same = this.tokens.find((t) => t.name.toLowerCase() === name.toLowerCase());
      if (same) throw conflict(`name: a token named '${same.name}' already exists (names differ in more than case)`);
      const secret = newSecret();
      const record: TokenRecord = { id: newId(this.tokens), name, role, digest: digestHex(secret), created_at: this.seconds(), created_by: actorId(p) };
      await this.commit([...this.tokens, record], this.settings);
      return { ...view(record), secret };
    });
  }

  /** A new secret for the same id, name and role; the old one stops working at once. */
  renew(p: Principal, id: string): Promise<IssuedToken> {
    return this.mutex.run(async () => {
      // Permission first: a non-admin's 404 would tell which token ids exist.
      if (p.role !== 'admin' && !(p.kind === 'token' && p.id === id)) {
        throw new SvcError('SVC_FORBIDDEN', 'forbidden: only an admin may renew another token; renew your own');
      }
      const current = this.find(id);
      const secret = newSecret();
      const renewed: TokenRecord = { ...current, digest: digestHex(secret), renewed_at: this.seconds() };
      await this.commit(this.tokens.map((t) => (t.id === id ? renewed : t)), this.settings);
      return { ...view(renewed), secret };
    });
  }

  /** Deletes a token; revoking the last admin token re-enables a disabled admin secret. */
  revoke(_p: Principal, id: string): Promise<{ id: string; revoked: true; secret_reenabled: boolean }> {
    return this.mutex.run(async () => {
      this.find(id);
      const rest = this.tokens.filter((t) => t.id !== id);
      const reenable = this.settings.secret_disabled && !rest.some((t) => t.role === 'admin');
      const settings = reenable ? { secret_disabled: false, changed_at: this.seconds(), changed_by: 'automatic: last admin token revoked' } : this.settings;
      await this.commit(rest, settings);
      return { id, revoked: true, secret_reenabled: reenable };
    });
  }

  /** Refuses the admin secret as a Bearer from now on; needs an admin token to exist. */
  disableSecret(p: Principal): Promise<{ secret_disabled: true; changed: boolean }> {
    return this.mutex.run(async () => {
      if (!this.tokens.some((t) => t.role === 'admin')) {
        throw conflict('no admin Access Token exists: create one first (POST /api/v1/auth/tokens with role admin), or nobody could administer svcd');
      }
      if (this.settings.secret_disabled) return { secret_disabled: true, changed: false };
      await this.commit(this.tokens, { secret_disabled: true, changed_at: this.seconds(), changed_by: actorId(p) });
      return { secret_disabled: true, changed: true };
    });
  }

  private find(id: string): TokenRecord {
    const record = this.tokens.find((t) => t.id === id);
    if (!record) throw notFound(`token '${id}' not found`);
    return record;
  }

  /**
   * Memory follows each file as soon as it is written, so they never disagree after a failure.
   * The settings go first: if the tokens write then fails, a secret re-enabled beside the last
   * admin token still there locks nobody out; the other order could leave that token revoked
   * beside a secret still disabled.
   */
  private async commit(tokens: TokenRecord[], settings: AuthSettings): Promise<void> {
    let outcome = 'nothing was changed';
    try {
      if (settings !== this.settings) {
        await durable(this.settingsFile, () => writeSettings(this.settingsFile, settings), outcome);
        this.settings = settings;
        outcome = `the admin secret is ${settings.secret_disabled ? 'disabled' : 'enabled'} now, but the tokens were not changed`;
      }
      if (tokens !== this.tokens) {
        await durable(this.tokensFile, () => writeTokens(this.tokensFile, tokens), outcome);
        this.tokens = tokens;
      }
    } finally {
      this.reloadNative();
      for (const listener of this.listeners) listener();
    }
  }

  private reloadNative(): void {
    this.opts.native.load(
      { digest: this.secretDigest, state: this.settings.secret_disabled ? 'disabled' : 'enabled' },
      this.tokens.map((t) => ({ id: t.id, role: t.role, digest: Buffer.from(t.digest, 'hex') })),
    );
  }

  private seconds(): number {
    return Math.floor(this.opts.now() / 1000);
  }
}

/** A write that cannot be made durable is refused with the reason (503) and `outcome`. */
async function durable(file: string, write: () => Promise<void>, outcome: string): Promise<void> {
  try {
    await write();
  } catch (err) {
    throw new SvcError('SVC_UNAVAILABLE', `cannot write ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); ${outcome}`, { cause: err });
  }
}

function view({ digest: _digest, ...rest }: TokenRecord): TokenView {
  return rest;
}

function actorId(p: Principal): string {
  return p.kind === 'token' ? p.id : p.kind;
}

/** `sk-` and 32 random bytes: unguessable, so an unsalted SHA-256 digest is safe to store. */
function newSecret(): string {
  return `sk-${randomBytes(32).toString('base64url')}`;
}

function newId(existing: TokenRecord[]): string {
  for (;;) {
    const id = `tok_${randomBytes(6).toString('hex')}`;
    if (!existing.some((t) => t.id === id)) return id;
  }
}

function digestHex(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

function parseCreate(body: unknown): { name: string; role: Role } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('body: must be a JSON object {name, role}');
  const b = body as Record<string, unknown>;
  for (const key of Object.keys(b)) if (key !== 'name' && key !== 'role') throw invalid(`${key}: unknown field (a token has name and role)`);
  if (typeof b.name !== 'string' || !TOKEN_NAME.test(b.name)) {
    throw invalid('name: required, 1 to 64 characters: letters, digits, space, _ . @ - (starting with a letter or digit)');
  }
  // Names that look alike in a listing or the audit log ('ci' and 'ci ') would be told apart by nobody.
  if (b.name.endsWith(' ') || b.name.includes('  ')) throw invalid('name: must not end with a space or hold two spaces in a row');
  if (typeof b.role !== 'string' || !ROLES.includes(b.role as Role)) throw invalid(`role: must be one of ${ROLES.join(', ')} (lowercase)`);
  return { name: b.name, role: b.role as Role };
}
