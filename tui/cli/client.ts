import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** Methods the CLI uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

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
  private readonly socketPath: string | null = null;

  constructor(private readonly opts: ClientOptions) {
    if (opts.url.startsWith('unix:')) {
      const socketPath = opts.url.slice('unix:'.length).replace(/^\/\//, '');
      this.origin = 'http://localhost';
      this.socketPath = socketPath;
    } else {
      this.origin = opts.url.replace(/\/+$/, '');
    }
  }

  /** The Bearer credential in use (from --token, SVC_TOKEN or `svc login`), if any. */
  get token(): string | undefined {
    return this.opts.token;
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

  async call<T>(method: HttpMethod, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.opts.token) headers.authorization = `Bearer ${this.opts.token}`;
    const raw = body instanceof RawBody ? body : null;
    if (body !== undefined) headers['content-type'] = raw ? raw.contentType : 'application/json';
    const payload = raw ? raw.text : body === undefined ? undefined : JSON.stringify(body);
    if (payload !== undefined) headers['content-length'] = String(Buffer.byteLength(payload));
    let res: { statusCode: number; text: string };
    try {
      res = await this.send({ method, path, headers, timeout: this.opts.timeoutMs ?? 120_000 }, payload);
    } catch (err) {
      throw new CliError(describeConnectError(this.opts.url, err));
    }
    const text = res.text;
    const parsed = text ? safeJson(text) : undefined;
    if (res.statusCode >= 400) {
      const message = (parsed as { message?: string } | undefined)?.message ?? `HTTP ${res.statusCode}`;
      throw new CliError(res.statusCode === 401 ? `${message} (use --token or SVC_TOKEN)` : message);
    }
    return parsed as T;
  }

  /**
   * One request with node:http (already part of Node's start-up), not undici: loading undici
   * costs a short-lived CLI ~60-100 ms and ~15 MiB per run (bench/RESULTS.md, S4 `svc list`).
   */
  private send(options: RequestOptions, payload: string | undefined): Promise<{ statusCode: number; text: string }> {
    const target: RequestOptions = this.socketPath ? { socketPath: this.socketPath } : urlTarget(new URL(this.origin));
    const request = this.origin.startsWith('https:') ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const req = request({ ...target, ...options, path: `${target.path ?? ''}${options.path}` }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.once('error', reject);
        res.once('end', () => resolve({ statusCode: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      });
      req.once('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
      req.once('error', reject);
      req.end(payload);
    });
  }
}

/** host, port and base path of an http(s) origin. */
function urlTarget(url: URL): RequestOptions {
  return { hostname: url.hostname.replace(/^\[|\]$/g, ''), port: url.port || undefined, path: url.pathname.replace(/\/+$/, '') };
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
  if (code === 'TIMEOUT') return `svcd at ${url} did not answer in time`;
  return `cannot reach svcd at ${url}: ${(err as Error).message}`;
}
