import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
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

  http(url, timeoutMs) {
    // node:http rather than undici: the daemon already has it loaded, which keeps svcd small.
    return new Promise<ProbeOutcome>((resolve) => {
      const request = url.startsWith('https:') ? httpsRequest : httpRequest;
      const req = request(url, { method: 'GET', timeout: timeoutMs, headers: { 'user-agent': 'svc-health' } }, (res) => {
        res.resume();
        const status = res.statusCode ?? 0;
        resolve({ ok: status >= 200 && status < 400, message: `GET ${url}: HTTP ${status}` });
      });
      req.once('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
      req.once('error', (err: NodeJS.ErrnoException) => {
        resolve({ ok: false, message: `GET ${url}: ${err.code === 'TIMEOUT' ? `no answer within ${timeoutMs} ms` : (err.code ?? err.message)}` });
      });
      req.end();
    });
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
