import { startHint } from './start-hint.js';

/**
 * Why a call to svcd failed: `unreachable` (nothing answers at the address, or the link broke),
 * `timeout` (it did not answer in time), `http` (it answered 4xx/5xx; `status` and the server's
 * message), `closed` (svcd ended a stream, e.g. the program was removed), `protocol` (an answer
 * that is not what svcd sends). The message is written for a person and shown as is by the CLI
 * and the dashboard.
 */
export type ApiErrorKind = 'unreachable' | 'timeout' | 'http' | 'closed' | 'protocol';

export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    message: string,
    readonly kind: ApiErrorKind,
    /** The HTTP status for `http`, else null. */
    readonly status: number | null = null,
  ) {
    super(message);
  }
}

/** The error for a request that never got an answer. */
export function connectError(url: string, err: unknown): ApiError {
  const code = (err as { code?: string }).code ?? (err as { cause?: { code?: string } }).cause?.code;
  if (code === 'ECONNREFUSED' || code === 'ENOENT') return new ApiError(`cannot reach svcd at ${url}: connection refused (is svcd running? start it with: ${startHint()})`, 'unreachable');
  if (code === 'TIMEOUT') return new ApiError(`svcd at ${url} did not answer in time`, 'timeout');
  if (code === 'HUNG') {
    const secs = ((err as { waitedMs?: number }).waitedMs ?? 0) / 1000;
    return new ApiError(`svcd at ${url} accepts connections but does not answer (GET /health got no answer in ${secs} s): is it stopped (kill -STOP) or stuck? see its log`, 'timeout');
  }
  const message = (err as Error).message ?? String(err);
  // OpenSSL's words for a TLS hello answered in plain HTTP: svcd itself never speaks TLS.
  if (url.startsWith('https:') && (code === 'EPROTO' || code === 'ERR_SSL_WRONG_VERSION_NUMBER') && /wrong version number/i.test(message)) {
    return new ApiError(`svcd at ${url} answered without TLS: svcd serves plain HTTP, so use ${url.replace(/^https:/, 'http:')} (or the https address of a TLS proxy in front of it)`, 'unreachable');
  }
  return new ApiError(`cannot reach svcd at ${url}: ${message.trim()}`, 'unreachable');
}

/** An answer that is not svcd's (a web server, a proxy page): said in one line, never dumped. */
export function notSvcdError(url: string, status: number, contentType: string): ApiError {
  return new ApiError(`${url} answered (HTTP ${status}, ${contentType || 'no content type'}) but is not svcd: check --url or SVC_URL`, 'protocol', status);
}

/** What a refused credential (401) is followed by unless the client says where its credential came from. */
export const CREDENTIAL_HINT = 'use --token or SVC_TOKEN';

/** The error for a 4xx/5xx answer; `body` is the parsed `{status: "error", message}` if any. */
export function httpError(status: number, body: unknown, path = '', credentialHint = CREDENTIAL_HINT): ApiError {
  const message = (body as { message?: string } | undefined)?.message ?? `HTTP ${status}`;
  const why = status === 404 && message.startsWith('no route for ') ? absentFeature(path) : null;
  return new ApiError(status === 401 ? `${message} (${credentialHint})` : why ? `${message}: ${why}` : message, 'http', status);
}

/**
 * Routes that exist only with a feature on (spec: auth routes without core auth and the security
 * plugin, token, secret and audit routes without the security plugin, notify routes without the
 * notify plugin answer 404): why svcd has no such route, for a person.
 */
function absentFeature(path: string): string | null {
  const p = path.split('?')[0] ?? '';
  if (/^\/api\/v1\/(auth\/(tokens|secret)|audit)(\/|$)/.test(p)) return 'the security plugin is not loaded on svcd (svc plugins list; docs/security.md)';
  if (/^\/api\/v1\/auth(\/|$)/.test(p)) return 'auth is off on svcd (no auth_secret, no security plugin)';
  if (/^\/api\/v1\/system\/notify(\/|$)/.test(p)) return 'the notify plugin is not loaded on svcd (svc plugins list; docs/notify.md)';
  return null;
}
