import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** The low end of the kernel's ephemeral port range (the ports listen(0) and connect() hand out). */
function ephemeralLow(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32768;
  } catch {
    return 32768;
  }
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/**
 * A free loopback port for a program a test starts, when its config must name the port before the
 * program listens (a health check). Not from listen(0): such a port, closed and named later, is in
 * the ephemeral range, so any outgoing connection on the machine (every HTTP request of a
 * parallel test) may take it meanwhile and the program's listen fails. Below the range only an
 * explicit bind can take it, and this picks at random among thousands.
 */
export async function freePort(): Promise<number> {
  const high = ephemeralLow() - 1;
  const low = Math.max(1025, high - 12_000);
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low + 1));
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port found between ${low} and ${high}`);
}
