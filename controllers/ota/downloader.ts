import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { rootCertificates } from 'node:tls';
import type { Agent } from 'undici';
import type { Clock } from '../../reconciler/clock.js';
import { isAllowedArtifactUrl } from '../../state/schema/artifact-url.js';
import { redactUrl } from '../../state/redact-url.js';
import { createOwnFile } from './own-file.js';
import type { DownloadRequest, Downloader } from './ports.js';

/** Spec: the connect timeout is 10 s whatever download_timeout says. */
export const CONNECT_TIMEOUT_MS = 10_000;
/**
 * A server that sends nothing for 5 minutes (no headers, or no body bytes) is given up on even
 * with `download_timeout = 0`, which lifts the deadline of the whole transfer, not this one.
 */
export const IDLE_TIMEOUT_MS = 300_000;
const MAX_REDIRECTS = 5;

/**
 * Downloads with undici: https anywhere, http only to loopback (every redirect hop is checked
 * too), streamed to the file with SHA-256 computed on the way, cut at the size cap and at
 * download_timeout. `ca` (PEM, `[ota] ca_file`) is trusted in addition to Node's bundled roots.
 */
export class UndiciDownloader implements Downloader {
  /** undici (~15 MiB of module code) is loaded on the first download: most daemons never run one. */
  private undici: Promise<{ agent: Agent; request: typeof import('undici').request }> | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly ca: string | null,
    private readonly idleTimeoutMs = IDLE_TIMEOUT_MS,
  ) {}

  private client(): Promise<{ agent: Agent; request: typeof import('undici').request }> {
    this.undici ??= import('undici').then(({ Agent, request }) => ({
      agent: new Agent({
        connect: { timeout: CONNECT_TIMEOUT_MS, ...(this.ca ? { ca: [...rootCertificates, this.ca] } : {}) },
        headersTimeout: this.idleTimeoutMs,
        bodyTimeout: this.idleTimeoutMs,
      }),
      request,
    }));
    return this.undici;
  }

  async download(req: DownloadRequest): Promise<{ digest: string; bytes: number }> {
    const abort = new AbortController();
    const cancelled = () => abort.abort(new Error('cancelled'));
    if (req.signal.aborted) cancelled();
    req.signal.addEventListener('abort', cancelled);
    const stopTimer =
      req.timeoutMs > 0 ? this.clock.setTimer(req.timeoutMs, () => abort.abort(new Error(`download_timeout (${req.timeoutMs / 1000} s) exceeded`))) : () => undefined;
    try {
      return await this.fetchTo(req, abort.signal);
    } catch (err) {
      if (abort.signal.aborted) throw new Error((abort.signal.reason as Error).message);
      if (isIdleTimeout(err)) throw new Error(`the server sent nothing for ${this.idleTimeoutMs / 1000} s`);
      throw new Error(describeDownloadError(err));
    } finally {
      stopTimer();
      req.signal.removeEventListener('abort', cancelled);
    }
  }

  async close(): Promise<void> {
    if (this.undici) await (await this.undici).agent.close();
  }

  private async fetchTo(req: DownloadRequest, signal: AbortSignal): Promise<{ digest: string; bytes: number }> {
    await requireDirectory(dirname(req.file));
    const { agent, request } = await this.client();
    let url = req.url;
    for (let hop = 0; ; hop++) {
      if (!isAllowedArtifactUrl(url)) throw new Error(`refusing ${redactUrl(url)}: https is required (plain http only for loopback hosts)`);
      const res = await request(url, { dispatcher: agent, signal, method: 'GET' });
      const location = res.headers.location;
      if (res.statusCode >= 300 && res.statusCode < 400 && typeof location === 'string') {
        await res.body.dump();
        if (hop >= MAX_REDIRECTS) throw new Error(`more than ${MAX_REDIRECTS} redirects`);
        url = new URL(location, url).href;
        continue;
      }
      if (res.statusCode !== 200) {
        await res.body.dump();
        throw new Error(`HTTP ${res.statusCode} from ${redactUrl(url)}`);
      }
      const declared = Number(res.headers['content-length']);
      if (declared > req.maxBytes) {
        await res.body.dump();
        throw new Error(`${redactUrl(url)} is ${declared} bytes, more than ota.max_download_bytes (${req.maxBytes})`);
      }
      return this.save(res.body, req, declared);
    }
  }

  private async save(body: AsyncIterable<Buffer>, req: DownloadRequest, declared: number): Promise<{ digest: string; bytes: number }> {
    const hash = createHash('sha256');
    let bytes = 0;
    const file = await createOwnFile(req.file);
    try {
      for await (const chunk of body) {
        bytes += chunk.length;
        if (bytes > req.maxBytes) throw new Error(`more than ota.max_download_bytes (${req.maxBytes}) received`);
        hash.update(chunk);
        await file.write(chunk);
        req.onProgress?.(bytes, Number.isFinite(declared) ? declared : null);
      }
      await file.sync();
    } catch (err) {
      if (!BROKEN_OFF.has((err as { code?: string }).code ?? '')) throw err;
      // "other side closed" alone does not say that the server stopped part-way.
      const of = Number.isFinite(declared) ? ` of the ${declared} bytes announced (Content-Length)` : ' bytes';
      throw new Error(`the transfer broke off after ${bytes}${of}: ${describeDownloadError(err)}`);
    } finally {
      await file.close();
    }
    return { digest: hash.digest('hex'), bytes };
  }
}

/**
 * The download is written beside the destination (paths.ts): a missing folder is named before
 * any request is made, not found by an `open` after the transfer has begun. It is retried like
 * any failed attempt, as the folder may yet be created (a mount, a provisioning step).
 */
async function requireDirectory(dir: string): Promise<void> {
  const found = await stat(dir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return null;
    throw err;
  });
  if (!found) throw new Error(`the destination's directory ${dir} does not exist (svc does not create it)`);
  if (!found.isDirectory()) throw new Error(`the destination's directory ${dir} is not a directory`);
}

/** A connection that ended under the body (the server, a proxy or the network cut it). */
const BROKEN_OFF: ReadonlySet<string> = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH']);

function isIdleTimeout(err: unknown): boolean {
  const code = (err as { code?: string }).code;
  return code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT';
}

/** undici and TLS errors name their code; the cause often says more than the message. */
export function describeDownloadError(err: unknown): string {
  const e = err as Error & { code?: string; cause?: Error & { code?: string } };
  const inner = e.cause?.message && e.cause.message !== e.message ? `: ${e.cause.message}` : '';
  const code = e.code ?? e.cause?.code;
  // File system errors start with their code already ("ENOENT: no such file or directory, ...").
  const named = code && !e.message.startsWith(`${code}:`) ? `${code}: ` : '';
  return `${named}${e.message}${inner}`;
}
