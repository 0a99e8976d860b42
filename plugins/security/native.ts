import type { Role } from '../../state/auth/principal.js';
import type { NativeFunction, PluginLibrary } from '../host/open-library.js';

/** The outcome of the plugin's authenticate(): codes of security.h. */
export type NativeVerdict = { kind: 'none' } | { kind: 'secret' } | { kind: 'secret_disabled' } | { kind: 'token'; id: string; role: Role };

/** A credential table entry: what svcd hands the plugin after every change. */
export interface NativeToken {
  id: string;
  role: Role;
  /** SHA-256 of the secret. */
  digest: Buffer;
}

const ROLE_CODE: Record<Role, number> = { viewer: 1, operator: 2, admin: 3 };
const ROLE_OF: Record<number, Role> = { 1: 'viewer', 2: 'operator', 3: 'admin' };
export const SECRET_STATE = { unset: 0, enabled: 1, disabled: 2 } as const;
const ID_CAP = 64;

/** Typed calls into security.so (security.h documents each function). */
export class SecurityNative {
  private readonly fn: (symbol: string) => NativeFunction;

  constructor(private readonly lib: PluginLibrary) {
    this.fn = (symbol) => {
      const f = lib.functions[symbol];
      if (!f) throw new TypeError(`security plugin: ${symbol} is not bound (plugins/host/catalog.ts)`);
      return f;
    };
  }

  get version(): string {
    return this.lib.version;
  }

  /** Replaces the whole credential table. */
  load(secret: { digest: Buffer; state: keyof typeof SECRET_STATE }, tokens: NativeToken[]): void {
    this.fn('svc_security_clear')();
    if (this.fn('svc_security_set_secret')(secret.digest, SECRET_STATE[secret.state]) !== 0) throw new Error('security plugin refused the admin secret digest');
    for (const t of tokens) {
      const rc: number = this.fn('svc_security_add_token')(t.id, ROLE_CODE[t.role], t.digest);
      if (rc !== 0) throw new Error(`security plugin refused token ${t.id} (code ${rc})`);
    }
    const count: number = this.fn('svc_security_token_count')();
    if (count !== tokens.length) throw new Error(`security plugin holds ${count} tokens, expected ${tokens.length}`);
  }

  authenticate(bearer: string): NativeVerdict {
    const data = Buffer.from(bearer, 'utf8');
    const role = [0];
    const id = Buffer.alloc(ID_CAP);
    const code: number = this.fn('authenticate')(data, data.length, role, id, ID_CAP);
    switch (code) {
      case 1:
        return { kind: 'secret' };
      case 2:
        return { kind: 'secret_disabled' };
      case 3: {
        const r = ROLE_OF[role[0] ?? 0];
        if (!r) throw new Error(`security plugin returned role code ${role[0]}`);
        return { kind: 'token', id: id.toString('utf8', 0, Math.max(0, id.indexOf(0))), role: r };
      }
      default:
        return { kind: 'none' };
    }
  }

  digest(data: Buffer): Buffer {
    const out = Buffer.alloc(32);
    this.fn('svc_security_digest')(data, data.length, out);
    return out;
  }

  equal(a: Buffer, b: Buffer): boolean {
    if (a.length !== b.length) return false;
    return this.fn('svc_security_equal')(a, b, a.length) === 1;
  }
}
