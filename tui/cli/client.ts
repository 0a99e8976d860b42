import { Agent, request, type Dispatcher } from 'undici';

/** A failure the CLI prints as one line (no stack trace) before exiting non-zero. */
export class CliError extends Error {
  override name = 'CliError';
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/** A body sent as is with its own Content-Type (a stack file in TOML or YAML). */
export class RawBody {
  constructor(
    readonly text: string,
    readonly contentType: string,
  ) {}
}

export interface ClientOptions {
  /** http://host:port, or unix:/path/to/svcd.sock */
  url: string;
  token?: string;
  timeoutMs?: number;
}

/** The JSON API over HTTP (or a Unix socket); errors become CliError with the server's message. */
export class ApiClient {
  private readonly origin: string;
  private readonly dispatcher: Dispatcher | undefined;
  private readonly socketPath: string | null = null;

  constructor(private readonly opts: ClientOptions) {
    if (opts.url.startsWith('unix:')) {
      const socketPath = opts.url.slice('unix:'.length).replace(/^\/\//, '');
      this.origin = 'http://localhost';
      this.socketPath = socketPath;
      this.dispatcher = new Agent({ connect: { socketPath } });
    } else {
      this.origin = opts.url.replace(/\/+$/, '');
      this.dispatcher = undefined;
    }
  }

  get url(): string {
    return this.opts.url;
  }

  /** Where and how to open a WebSocket on `path` (ws://, or ws+unix: for a socket). */
  webSocketTarget(path: string): { url: string; headers: Record<string, string> } {
    const url = this.socketPath ? `ws+unix:${this.socketPath}:${path}` : `${this.origin.replace(/^http/, 'ws')}${path}`;
    return { url, headers: this.opts.token ? { authorization: `Bearer ${this.opts.token}` } : {} };
  }

  get<T>(path: string): Promise<T> {
    return this.call<T>('GET', path);
  }

  post<T>(path: string, body?: unknown): Promise<T> {
    return this.call<T>('POST', path, body);
  }

  put<T>(path: string, body: unknown): Promise<T> {
    return this.call<T>('PUT', path, body);
  }

  delete<T>(path: string): Promise<T> {
    return this.call<T>('DELETE', path);
  }

  async call<T>(method: Dispatcher.HttpMethod, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.opts.token) headers.authorization = `Bearer ${this.opts.token}`;
    const raw = body instanceof RawBody ? body : null;
    if (body !== undefined) headers['content-type'] = raw ? raw.contentType : 'application/json';
    let res: Dispatcher.ResponseData;
    try {
      res = await request(`${this.origin}${path}`, {
        method,
        headers,
        body: raw ? raw.text : body === undefined ? undefined : JSON.stringify(body),
        dispatcher: this.dispatcher,
        headersTimeout: this.opts.timeoutMs ?? 120_000,
        bodyTimeout: this.opts.timeoutMs ?? 120_000,
      });
    } catch (err) {
      throw new CliError(describeConnectError(this.opts.url, err));
    }
    const text = await res.body.text();
    const parsed = text ? safeJson(text) : undefined;
    if (res.statusCode >= 400) {
      const message = (parsed as { message?: string } | undefined)?.message ?? `HTTP ${res.statusCode}`;
      throw new CliError(res.statusCode === 401 ? `${message} (use --token or SVC_TOKEN)` : message);
    }
    return parsed as T;
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { message: text };
  }
}

function describeConnectError(url: string, err: unknown): string {
  const code = (err as { code?: string }).code ?? (err as { cause?: { code?: string } }).cause?.code;
  if (code === 'ECONNREFUSED' || code === 'ENOENT') return `cannot reach svcd at ${url}: connection refused (is svcd running? start it with: svcd)`;
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return `svcd at ${url} did not answer in time`;
  return `cannot reach svcd at ${url}: ${(err as Error).message}`;
}
