import { request as httpRequest, type ClientRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { httpTarget, parseAddress, webSocketUrl, type DaemonAddress } from './address.js';
import { ApiError, connectError, httpError, notSvcdError } from './errors.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

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
  /** Per request; default 120 s (an action waits for its effect). */
  timeoutMs?: number;
  /** How often a request still waiting checks that svcd answers at all, and how long that may take (tests shorten it). */
  liveness?: { everyMs: number; timeoutMs: number };
  /** Said after a refused credential (401) in place of CREDENTIAL_HINT: where `token` came from. */
  credentialHint?: string;
}

/**
 * An action waits for its effect, so svcd may rightly take long to answer; a stopped or wedged
 * svcd takes as long and looks the same from the socket. While a request waits, `GET /health`
 * on a connection of its own tells them apart: it answers at once from a working svcd.
 */
const LIVENESS = { everyMs: 5_000, timeoutMs: 10_000 };

/**
 * The JSON API of svcd over HTTP or a Unix socket. Failures reject with an ApiError whose
 * message is shown to the user as is. node:http, not undici: loading undici costs a short-lived
 * CLI ~60-100 ms and ~15 MiB per run (bench/RESULTS.md, S4 `svc list`).
 */
export class ApiClient {
  readonly address: DaemonAddress;

  constructor(private readonly opts: ClientOptions) {
    this.address = parseAddress(opts.url);
  }

  /** The Bearer credential in use (from --token, SVC_TOKEN or `svc login`), if any. */
  get token(): string | undefined {
    return this.opts.token;
  }

  /** Where the credential came from, said after a 401 (ClientOptions.credentialHint). */
  get credentialHint(): string | undefined {
    return this.opts.credentialHint;
  }

  get url(): string {
    return this.opts.url;
  }

  /** Where and how to open a WebSocket on `path`. */
  webSocketTarget(path: string): { url: string; headers: Record<string, string> } {
    return { url: webSocketUrl(this.address, path), headers: this.authHeaders() };
  }

  get<T>(path: string): Promise<T> {
    return this.call<T>('GET', path);
  }

  /** `timeoutMs`: this request's own bound, for an action known to take longer than the client's (a reaction's test run). */
  post<T>(path: string, body?: unknown, opts: { timeoutMs?: number } = {}): Promise<T> {
    return this.call<T>('POST', path, body, opts.timeoutMs);
  }

  put<T>(path: string, body: unknown): Promise<T> {
    return this.call<T>('PUT', path, body);
  }

  delete<T>(path: string): Promise<T> {
    return this.call<T>('DELETE', path);
  }

  async call<T>(method: HttpMethod, path: string, body?: unknown, timeoutMs?: number): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json', ...this.authHeaders() };
    const raw = body instanceof RawBody ? body : null;
    if (body !== undefined) headers['content-type'] = raw ? raw.contentType : 'application/json';
    const payload = raw ? raw.text : body === undefined ? undefined : JSON.stringify(body);
    if (payload !== undefined) headers['content-length'] = String(Buffer.byteLength(payload));
    const { req, res } = await this.open({ method, headers, timeout: timeoutMs ?? this.opts.timeoutMs ?? 120_000 }, path, payload, true);
    const text = await this.readAll(req, res);
    // svcd answers JSON; an HTML page (or any success that is not JSON) is someone else, and so
    // is a 404 that is not JSON (svcd's own 404s are: `no route for ...`), empty or not.
    const type = String(res.headers['content-type'] ?? '');
    const status = res.statusCode ?? 0;
    if (!type.includes('json') && ((text && (status < 400 || type.includes('html'))) || status === 404)) throw notSvcdError(this.opts.url, status, type.split(';')[0] ?? '');
    const parsed = text ? safeJson(text) : undefined;
    if ((res.statusCode ?? 0) >= 400) throw httpError(res.statusCode ?? 0, parsed, path, this.opts.credentialHint);
    return parsed as T;
  }

  /**
   * A long-lived GET (Server-Sent Events): resolves once a 2xx head arrives, with the response to
   * read and `close` to end it. `onEnd` is called once if the stream ends by any other means than
   * `close`: nothing arrived for `idleMs` (a hung daemon or a lost link), or svcd closed it.
   */
  async stream(path: string, idleMs: number, onEnd: (err: ApiError) => void): Promise<{ response: IncomingMessage; close: () => void }> {
    const { req, res } = await this.open({ method: 'GET', headers: { accept: 'text/event-stream', ...this.authHeaders() }, timeout: idleMs }, path, undefined);
    if ((res.statusCode ?? 0) >= 400) throw httpError(res.statusCode ?? 0, safeJson(await this.readAll(req, res)), path, this.opts.credentialHint);
    let over = false;
    const end = (err: ApiError) => {
      if (over) return;
      over = true;
      onEnd(err);
    };
    req.on('error', (err) => end(connectError(this.opts.url, err)));
    res.once('close', () => end(new ApiError(`svcd at ${this.opts.url} closed the stream`, 'unreachable')));
    return {
      response: res,
      close: () => {
        over = true;
        req.destroy();
      },
    };
  }

  private authHeaders(): Record<string, string> {
    return this.opts.token ? { authorization: `Bearer ${this.opts.token}` } : {};
  }

  /**
   * Sends one request; resolves with the response head, rejects with an ApiError when none comes.
   * `watched`: until the request is over, svcd's liveness is checked (LIVENESS).
   */
  private async open(options: RequestOptions, path: string, payload: string | undefined, watched = false): Promise<{ req: ClientRequest; res: IncomingMessage }> {
    // node:https (with tls and crypto) only for an https URL: ~2.5 ms of every short command otherwise.
    const request = this.address.origin.startsWith('https:') ? (await import('node:https')).request : httpRequest;
    return new Promise((resolve, reject) => {
      const req = request({ ...httpTarget(this.address, path), ...options }, (res) => resolve({ req, res }));
      req.once('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
      req.once('error', (err) => reject(connectError(this.opts.url, err)));
      if (watched) this.watchLiveness(req);
      req.end(payload);
    });
  }

  /** Every `everyMs` while `req` waits: a `GET /health` that gets no answer ends `req` as hung. */
  private watchLiveness(req: ClientRequest): void {
    const { everyMs, timeoutMs } = this.opts.liveness ?? LIVENESS;
    let probing = false;
    const timer = setInterval(() => {
      if (probing) return;
      probing = true;
      this.open({ method: 'GET', headers: { accept: 'application/json' }, timeout: timeoutMs }, '/health', undefined).then(
        ({ req: probe, res }) => {
          probing = false;
          res.resume();
          res.once('end', () => probe.destroy());
        },
        () => {
          clearInterval(timer);
          req.destroy(Object.assign(new Error('hung'), { code: 'HUNG', waitedMs: timeoutMs }));
        },
      );
    }, everyMs);
    timer.unref();
    req.once('close', () => clearInterval(timer));
  }

  /** The body as text; a timeout or reset while reading rejects (the request's error says which). */
  private readAll(req: ClientRequest, res: IncomingMessage): Promise<string> {
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.once('error', (err) => reject(connectError(this.opts.url, err)));
      res.once('error', (err) => reject(connectError(this.opts.url, err)));
      res.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { message: text };
  }
}
