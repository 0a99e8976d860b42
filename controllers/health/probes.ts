import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { request } from 'undici';
import type { ExecProbeSpec, ProbeOutcome, ProbePort } from './probe-port.js';

/** Real probes: TCP connect, HTTP GET (undici), command execution. */
export const realProbes: ProbePort = {
  tcp(host, port, timeoutMs) {
    return new Promise<ProbeOutcome>((resolve) => {
      const socket = connect({ host, port });
      const done = (outcome: ProbeOutcome) => {
        clearTimeout(timer);
        socket.destroy();
        resolve(outcome);
      };
      const timer = setTimeout(() => done({ ok: false, message: `tcp ${host}:${port}: no connection within ${timeoutMs} ms` }), timeoutMs);
      socket.once('connect', () => done({ ok: true, message: `tcp ${host}:${port}: connected` }));
      socket.once('error', (err: NodeJS.ErrnoException) => done({ ok: false, message: `tcp ${host}:${port}: ${err.code ?? err.message}` }));
    });
  },

  async http(url, timeoutMs) {
    try {
      const res = await request(url, { method: 'GET', headersTimeout: timeoutMs, bodyTimeout: timeoutMs, signal: AbortSignal.timeout(timeoutMs) });
      await res.body.dump();
      const ok = res.statusCode >= 200 && res.statusCode < 400;
      return { ok, message: `GET ${url}: HTTP ${res.statusCode}` };
    } catch (err) {
      const e = err as { code?: string; name?: string; message: string };
      const why = e.name === 'TimeoutError' || e.code === 'UND_ERR_HEADERS_TIMEOUT' ? `no answer within ${timeoutMs} ms` : (e.code ?? e.message);
      return { ok: false, message: `GET ${url}: ${why}` };
    }
  },

  exec(spec: ExecProbeSpec, timeoutMs) {
    return new Promise<ProbeOutcome>((resolve) => {
      const child = spawn(spec.file, spec.args, { cwd: spec.cwd, env: spec.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      const keep = (chunk: Buffer) => {
        if (output.length < 512) output += chunk.toString();
      };
      child.stdout?.on('data', keep);
      child.stderr?.on('data', keep);
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        try {
          process.kill(-(child.pid ?? 0), 'SIGKILL');
        } catch {
          /* already gone */
        }
      }, timeoutMs);
      const tail = () => (output.trim() ? `: ${output.trim().split('\n').slice(-1)[0]?.slice(0, 200)}` : '');
      child.once('error', (err) => {
        clearTimeout(timer);
        resolve({ ok: false, message: `exec ${spec.file}: ${(err as NodeJS.ErrnoException).code ?? err.message}` });
      });
      child.once('close', (code, signal) => {
        clearTimeout(timer);
        if (timedOut) resolve({ ok: false, message: `exec ${spec.file}: killed after ${timeoutMs} ms` });
        else if (code === 0) resolve({ ok: true, message: `exec ${spec.file}: exit 0${tail()}` });
        else resolve({ ok: false, message: `exec ${spec.file}: ${code !== null ? `exit ${code}` : `signal ${signal}`}${tail()}` });
      });
    });
  },
};
