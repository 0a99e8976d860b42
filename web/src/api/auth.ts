import { ApiError } from './http.js';
import type { AuthStatus } from './types.js';

async function call(method: string, path: string, token: string | null): Promise<Response> {
  try {
    return await fetch(path, { method, headers: token ? { authorization: `Bearer ${token}` } : {}, cache: 'no-store' });
  } catch (err) {
    throw new ApiError(0, `svcd is not reachable (${(err as Error).message})`);
  }
}

async function messageOf(res: Response): Promise<string> {
  try {
    const body = (await res.json()) as { message?: unknown };
    if (typeof body.message === 'string') return body.message;
  } catch {
    // not JSON
  }
  return `HTTP ${res.status}`;
}

/**
 * `GET /api/v1/auth/status` (exempt from auth) with the candidate credential: null when the
 * daemon has no auth routes (open mode: 404), the status otherwise.
 */
export async function authStatus(token: string | null): Promise<AuthStatus | null> {
  const res = await call('GET', '/api/v1/auth/status', token);
  if (res.status === 404) return null;
  if (!res.ok) throw new ApiError(res.status, await messageOf(res));
  return (await res.json()) as AuthStatus;
}

/** `POST /api/v1/auth/login`: resolves when the daemon accepts the credential, else the daemon's message. */
export async function login(token: string): Promise<void> {
  const res = await call('POST', '/api/v1/auth/login', token);
  if (!res.ok) throw new ApiError(res.status, await messageOf(res));
}

/** `POST /api/v1/auth/logout`; the client forgets the credential whatever the answer. */
export async function logout(token: string | null): Promise<void> {
  await call('POST', '/api/v1/auth/logout', token).catch(() => undefined);
}
