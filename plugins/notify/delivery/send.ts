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

/** One POST of a JSON body with svc's timeouts: connect, headers and body each bounded. */
export async function postOnce(agent: Agent, url: string, body: string, headers: Record<string, string>): Promise<Attempt> {
  try {
    const { request } = await import('undici'); // loaded on the first delivery, not at start-up
    const res = await request(url, { method: 'POST', dispatcher: agent, body, headers: { 'content-type': 'application/json', 'user-agent': 'svc-notify/1', ...headers } });
    const text = (await res.body.text()).slice(0, 200);
    const status = res.statusCode;
    if (status >= 200 && status < 300) return { status, error: null, retryable: false };
    return { status, error: `HTTP ${status}${text ? `: ${text.replace(/\s+/g, ' ').trim()}` : ''}`, retryable: status >= 500 || status === 429 };
  } catch (err) {
    const e = err as Error & { code?: string };
    return { status: null, error: `${e.code ?? e.name}: ${e.message}`, retryable: true };
  }
}

/** The HTTP client of the delivery: every timeout is the channel's timeout_secs. undici is imported on first use (svcd's memory). */
export async function deliveryAgent(timeoutSecs: number): Promise<Agent> {
  const ms = timeoutSecs * 1000;
  const { Agent } = await import('undici');
  return new Agent({ connect: { timeout: ms }, headersTimeout: ms, bodyTimeout: ms, connections: 8 });
}
