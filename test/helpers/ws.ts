import WebSocket from 'ws';

export interface WsProbe {
  ws: WebSocket;
  messages: { source: string; content: string; ts: number }[];
  closed: Promise<{ code: number; reason: string }>;
  opened: Promise<void>;
}

/** Connects a WebSocket and records its messages and close code (integration tests). */
export function connectWs(url: string, headers: Record<string, string> = {}): WsProbe {
  const ws = new WebSocket(url, { headers });
  const messages: WsProbe['messages'] = [];
  ws.on('message', (data: Buffer) => messages.push(JSON.parse(data.toString('utf8')) as WsProbe['messages'][number]));
  ws.on('error', () => undefined);
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code: number, reason: Buffer) => resolve({ code, reason: reason.toString() })));
  const opened = new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return { ws, messages, closed, opened };
}
