import type { Readable } from 'node:stream';
import type { Agent } from 'undici';

/** The outcome of one delivery (after its retries): what POST /api/v1/system/notify/test returns. */
export interface DeliveryResult {
  ok: boolean;
  /** HTTP status of the last attempt; null when it got no answer. */
  status: number | null;
  attempts: number;
  /** Why it failed (status and a short body, or the network error); null when ok. */
  error: string | null;
  duration_ms: number;
}

export interface Attempt {
  status: number | null;
  error: string | null;
  /** A 5xx, 429 or network error: worth another try. */
  retryable: boolean;
}

/** The most of a receiver's answer read (for the error message); the rest is never read. */
const ANSWER_HEAD_BYTES = 1024;

/**
 * One POST of a JSON body with svc's timeouts: connect, headers and body each bounded. The
 * answer's body is read only up to ANSWER_HEAD_BYTES and for at most `timeoutMs` (undici's
 * bodyTimeout is between chunks, so a receiver that trickles or streams without end would hold a
 * worker, and a whole large body would be held in memory).
 */
export async function postOnce(agent: Agent, url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<Attempt> {
  try {
    const { request } = await import('undici'); // loaded on the first delivery, not at start-up
    const res = await request(url, { method: 'POST', dispatcher: agent, body, headers: { 'content-type': 'application/json', 'user-agent': 'svc-notify/1', ...headers } });
    const text = (await readHead(res.body, ANSWER_HEAD_BYTES, timeoutMs)).slice(0, 200);
    const status = res.statusCode;
    if (status >= 200 && status < 300) return { status, error: null, retryable: false };
    return { status, error: `HTTP ${status}${text ? `: ${text.replace(/\s+/g, ' ').trim()}` : ''}`, retryable: status >= 500 || status === 429 };
  } catch (err) {
    const e = err as Error & { code?: string };
    return { status: null, error: `${e.code ?? e.name}: ${e.message}`, retryable: true };
  }
}

/** Up to `max` bytes of a body, within `ms`; then the body is destroyed (the status is the answer, the text only explains it). */
async function readHead(body: Readable, max: number, ms: number): Promise<string> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  const timer = setTimeout(() => body.destroy(), ms);
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      bytes += chunk.length;
      if (bytes >= max) break;
    }
  } catch {
    // Cut off (deadline) or reset: what arrived is enough to explain the status.
  } finally {
    clearTimeout(timer);
    body.destroy();
  }
  return Buffer.concat(chunks).subarray(0, max).toString('utf8');
}

/** The HTTP client of the delivery: every timeout is the channel's timeout_secs. undici is imported on first use (svcd's memory). */
export async function deliveryAgent(timeoutSecs: number): Promise<Agent> {
  const ms = timeoutSecs * 1000;
  const { Agent } = await import('undici');
  return new Agent({ connect: { timeout: ms }, headersTimeout: ms, bodyTimeout: ms, connections: 8 });
}
