/** A daemon answer other than 2xx: its status and the daemon's own message (`{status, message}`). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface Http {
  get<T>(path: string): Promise<T>;
  /** JSON body by default; a string body is sent as is with `contentType`. */
  send<T>(method: 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown, contentType?: string): Promise<T>;
}

export interface HttpOptions {
  token(): string | null;
  /** Called on a 401: the credential is missing or wrong (the app asks for it again). */
  unauthorized(message: string): void;
}

/**
 * fetch() against the page's own origin, with the session's Bearer credential. No time limit: some
 * answers come late on purpose (`PUT /api/v1/stack?wait=` is held until the programs are ready,
 * up to its wait), and a limit here would drop an outcome svcd is about to send.
 */
export function createHttp(opts: HttpOptions): Http {
  const call = async <T>(method: string, path: string, body?: unknown, contentType?: string): Promise<T> => {
    const headers: Record<string, string> = { accept: 'application/json' };
    const token = opts.token();
    if (token) headers.authorization = `Bearer ${token}`;
    let payload: string | undefined;
    if (body !== undefined) {
      payload = typeof body === 'string' ? body : JSON.stringify(body);
      headers['content-type'] = contentType ?? 'application/json';
    }
    let res: Response;
    try {
      res = await fetch(path, { method, headers, body: payload, cache: 'no-store' });
    } catch (err) {
      throw new ApiError(0, `svcd is not reachable (${(err as Error).message})`);
    }
    const text = await res.text();
    let parsed: unknown = undefined;
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    if (!res.ok) {
      const message = typeof parsed === 'object' && parsed !== null && typeof (parsed as { message?: unknown }).message === 'string' ? (parsed as { message: string }).message : `HTTP ${res.status} ${res.statusText}`;
      if (res.status === 401) opts.unauthorized(message);
      throw new ApiError(res.status, message);
    }
    return parsed as T;
  };
  return {
    get: (path) => call('GET', path),
    send: (method, path, body, contentType) => call(method, path, body, contentType),
  };
}

/** The message to show for any failure. */
export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
