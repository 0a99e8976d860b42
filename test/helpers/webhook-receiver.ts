import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: any;
  at: number;
}

/** What the receiver answers: a status, or 'hang' (reads the request, never answers). */
export type Answer = number | 'hang';

/**
 * A real webhook receiver on loopback for the notify tests: records every request and answers
 * with the next status of `answers` (the last one repeats), or hangs. `close` ends hung requests.
 */
export async function webhookReceiver(answers: Answer[] = [200]): Promise<{ url: (path?: string) => string; received: Received[]; setAnswers(a: Answer[]): void; close(): Promise<void> }> {
  const received: Received[] = [];
  let queue = [...answers];
  const hung = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      received.push({ path: req.url ?? '', headers: req.headers, body: text ? JSON.parse(text) : null, at: Date.now() });
      const answer = queue.length > 1 ? queue.shift()! : (queue[0] ?? 200);
      if (answer === 'hang') {
        hung.add(res);
        return;
      }
      res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer >= 400 ? `receiver says ${answer}` : 'ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    received,
    setAnswers(a) {
      queue = [...a];
    },
    async close() {
      for (const res of hung) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
