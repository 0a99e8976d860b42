import { connect } from 'node:net';
import { constants } from 'node:os';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { redactUrl } from '../../state/redact-url.js';
import type { OsPort } from '../os/port.js';
import type { ExecProbeSpec, ProbeOutcome, ProbePort } from './probe-port.js';
import { probeLookup, type LookupFn } from './probe-lookup.js';

/**
 * Real probes: TCP connect, HTTP GET, and commands, which run through the OS port like every
 * other process (the spawner when there is one).
 */
export const createProbes = (os: Pick<OsPort, 'capture'>, lookup: LookupFn = probeLookup()): ProbePort => ({
  tcp(host, port, timeoutMs, abort) {
    return new Promise<ProbeOutcome>((resolve) => {
      const socket = connect({ host, port, lookup: lookup as never });
      const done = (outcome: ProbeOutcome) => {
        clearTimeout(timer);
        abort?.removeEventListener('abort', aborted);
        socket.destroy();
        resolve(outcome);
      };
      const timer = setTimeout(() => done({ ok: false, message: `tcp ${host}:${port}: no connection within ${timeoutMs} ms` }), timeoutMs);
      const aborted = () => done({ ok: false, message: `tcp ${host}:${port}: abandoned` });
      onAbort(abort, aborted);
      socket.once('connect', () => done({ ok: true, message: `tcp ${host}:${port}: connected` }));
      socket.once('error', (err: NodeJS.ErrnoException) => done({ ok: false, message: `tcp ${host}:${port}: ${err.code ?? err.message}` }));
    });
  },

  http(url, timeoutMs, abort) {
    // node:http rather than undici: the daemon already has it loaded, which keeps svcd small.
    // Each probe is a connection of its own (no keep-alive: a probe tests that the server still
    // accepts), closed once the status line is read: a body that never ends (an event stream, a
    // large page) is neither downloaded nor left holding a socket. The deadline covers the whole
    // exchange, so a server that sends its headers a byte at a time fails at the timeout too.
    return new Promise<ProbeOutcome>((resolve) => {
      const request = url.startsWith('https:') ? httpsRequest : httpRequest;
      const done = (outcome: ProbeOutcome) => {
        clearTimeout(timer);
        abort?.removeEventListener('abort', aborted);
        req.destroy();
        resolve(outcome);
      };
      const req = request(url, { method: 'GET', agent: false, lookup: lookup as never, headers: { 'user-agent': 'svc-health' } }, (res) => {
        const status = res.statusCode ?? 0;
        done({ ok: status >= 200 && status < 400, message: `GET ${redactUrl(url)}: HTTP ${status}` });
      });
      const timer = setTimeout(() => done({ ok: false, message: `GET ${redactUrl(url)}: no answer within ${timeoutMs} ms` }), timeoutMs);
      const aborted = () => done({ ok: false, message: `GET ${redactUrl(url)}: abandoned` });
      onAbort(abort, aborted);
      req.once('error', (err: NodeJS.ErrnoException) => done({ ok: false, message: `GET ${redactUrl(url)}: ${HTTP_ERRORS[err.code ?? ''] ?? err.code ?? err.message}` }));
      req.end();
    });
  },

  exec: (spec, timeoutMs, abort) => execProbe(os, spec, timeoutMs, abort),
});

/** What node:http's parser codes mean, for the ones a misbehaving server can cause. */
const HTTP_ERRORS: Record<string, string> = {
  HPE_HEADER_OVERFLOW: 'the response headers are larger than 16 KiB (HPE_HEADER_OVERFLOW)',
  HPE_INVALID_CONSTANT: 'the answer is not HTTP (HPE_INVALID_CONSTANT)',
  HPE_INVALID_STATUS: 'the status line is not HTTP (HPE_INVALID_STATUS)',
};

/** Calls `fn` when `abort` fires, or at once when it already has. */
function onAbort(abort: AbortSignal | undefined, fn: () => void): void {
  if (abort?.aborted) fn();
  else abort?.addEventListener('abort', fn, { once: true });
}

/** Exit 0 passes; the message ends with the last line of output (of the first CAPTURE_LIMIT bytes). */
export async function execProbe(os: Pick<OsPort, 'capture'>, spec: ExecProbeSpec, timeoutMs: number, abort?: AbortSignal): Promise<ProbeOutcome> {
  const run = await os.capture(spec, timeoutMs, abort);
  const text = run.output.trim();
  const tail = text ? `: ${text.split('\n').slice(-1)[0]?.slice(0, 200)}` : '';
  if (run.error) return { ok: false, message: `exec ${spec.file}: ${run.error}` };
  if (run.timedOut) return { ok: false, message: `exec ${spec.file}: killed after ${timeoutMs} ms` };
  if (run.code === 0) return { ok: true, message: `exec ${spec.file}: exit 0${tail}` };
  return { ok: false, message: `exec ${spec.file}: ${run.code !== null ? `exit ${run.code}` : `signal ${signalName(run.signal)}`}${tail}` };
}

function signalName(signo: number | null): string {
  return Object.entries(constants.signals).find(([, n]) => n === signo)?.[0] ?? String(signo);
}
