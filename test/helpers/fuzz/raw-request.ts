import { request } from 'node:http';

export interface RawResponse {
  status: number;
  body: string;
  type: string;
}

/** One request on its own connection (no pooling, so svcd's descriptor count can be compared). */
export function rawRequest(url: string, method: string, path: string, headers: Record<string, string>, body?: Buffer, timeoutMs = 60_000): Promise<RawResponse> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, method, path, headers: { ...headers, ...(body ? { 'content-length': String(body.length) } : {}) }, agent: false }, (res) => {
      const type = String(res.headers['content-type'] ?? '');
      if (type.startsWith('text/event-stream')) {
        // A stream (GET /api/v1/watch) never ends by itself: its status is the answer; hang up.
        resolve({ status: res.statusCode ?? 0, body: '', type });
        res.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), type: String(res.headers['content-type'] ?? '') }));
      res.on('error', reject);
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', (err: NodeJS.ErrnoException) => {
      // svcd may answer 413 and close before the whole body is sent: that is an answer, not an error.
      reject(err);
    });
    req.end(body);
  });
}
