import type { Http } from './http.js';
import type { LogLine } from './types.js';
import { LogBatch } from '../logic/log-batch.js';
import { LOG_CAP } from '../logic/log-buffer.js';
import { SnapshotThenStream } from '../logic/log-merge.js';
import { LogPieces } from '../../../state/log-pieces.js';

/** connecting, live (WebSocket open), closed (program gone, or the credential refused). */
export type LogMode = 'connecting' | 'live' | 'reconnecting' | 'closed';

export interface LogSink {
  lines(lines: LogLine[], replace: boolean): void;
  mode(mode: LogMode, reason?: string): void;
}

/** Close codes of `/ws` (api/ws/log-hub.ts). */
const NOT_FOUND = 4404;
const UNAUTHORIZED = 4401;
/** Lines reach the view at most this often (a flooding program sends one message per line). */
const FLUSH_MS = 100;

/** `ws(s)://<this host>/ws?id=<uuid>`: no credential in the address (logsSocketProtocols carries it). */
export function logSocketUrl(loc: { protocol: string; host: string }, id: string): string {
  const scheme = loc.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${loc.host}/ws?${new URLSearchParams({ id })}`;
}

/**
 * Browsers cannot set headers on a WebSocket, so the session's credential is offered as the
 * subprotocol `base64url.bearer.<credential, base64url>` beside `svc.v1`, which svcd selects
 * (docs/security.md). In `?token=` it would be in the address, which a reverse proxy logs and the
 * browser's network panel shows; base64url takes any secret, whatever characters it has.
 */
export function logSocketProtocols(token: string | null): string[] {
  if (!token) return [];
  let binary = '';
  for (const byte of new TextEncoder().encode(token)) binary += String.fromCharCode(byte);
  const encoded = btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  return ['svc.v1', `base64url.bearer.${encoded}`];
}

/**
 * Snapshot then stream: on every (re)connect the last `tail` lines come over HTTP and replace
 * what is shown, then each WebSocket message appends (logic/log-merge.ts: lines streamed while
 * the tail is on its way are neither lost nor shown twice). The sink gets them at most every
 * FLUSH_MS, together (logic/log-batch.ts). A dropped socket reconnects with backoff.
 * Returns the function that stops everything.
 */
export function followLogs(opts: { http: Http; id: string; token: string | null; tail: number }, sink: LogSink): () => void {
  let stopped = false;
  let ws: WebSocket | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let backoff = 500;
  let flushTimer: ReturnType<typeof setTimeout> | undefined;

  const batch = new LogBatch(
    (lines, replace) => {
      if (!stopped) sink.lines(lines, replace);
    },
    (run) => (flushTimer = setTimeout(run, FLUSH_MS)),
    LOG_CAP,
  );
  const merge = new SnapshotThenStream((lines, replace) => batch.push(lines, replace));

  const snapshot = async () => {
    merge.begin();
    try {
      const res = await opts.http.get<{ logs: LogLine[] }>(`/api/v1/programs/${encodeURIComponent(opts.id)}/logs?tail=${opts.tail}`);
      merge.snapshot(res.logs);
    } catch {
      // The stream still runs; the list's own refresh reports a lost daemon.
      merge.failed();
    }
  };

  const connect = () => {
    sink.mode('connecting');
    const socket = new WebSocket(logSocketUrl(location, opts.id), logSocketProtocols(opts.token));
    ws = socket;
    const pieces = new LogPieces();
    socket.onopen = () => {
      backoff = 500;
      sink.mode('live');
      void snapshot();
    };
    socket.onmessage = (ev: MessageEvent) => {
      const message = parseLine(ev.data);
      const line = message && pieces.push(message);
      if (line) merge.streamed(line);
    };
    socket.onclose = (ev: CloseEvent) => {
      if (stopped) return;
      ws = null;
      if (ev.code === NOT_FOUND) return sink.mode('closed', ev.reason || 'program not found');
      if (ev.code === UNAUTHORIZED) return sink.mode('closed', ev.reason || 'authentication required');
      sink.mode('reconnecting', ev.reason || undefined);
      timer = setTimeout(connect, backoff);
      backoff = Math.min(backoff * 2, 5000);
    };
  };
  connect();
  return () => {
    stopped = true;
    clearTimeout(timer);
    clearTimeout(flushTimer);
    ws?.close(1000, 'page closed');
  };
}

/** A message of `/ws`, a piece of a long line keeping `continues` (LogPieces joins them), or null. */
export function parseLine(data: unknown): (LogLine & { continues?: true }) | null {
  if (typeof data !== 'string') return null;
  try {
    const m = JSON.parse(data) as Partial<LogLine> & { continues?: unknown };
    if (typeof m.content !== 'string') return null;
    const line: LogLine = { source: m.source === 'stderr' ? 'stderr' : 'stdout', content: m.content, ts: typeof m.ts === 'number' ? m.ts : undefined };
    return m.continues === true ? { ...line, continues: true } : line;
  } catch {
    return null;
  }
}
