import { lookup as dnsLookup } from 'node:dns';

type Callback = (err: NodeJS.ErrnoException | null, address: unknown, family?: number) => void;
/** dns.lookup's shape as net.connect and http.request take it (`lookup` option). */
export type LookupFn = (hostname: string, options: object, callback: Callback) => void;

/** Lookups running at once: libuv's pool has 4 threads, and LevelDB and file I/O need the rest. */
const MAX_RUNNING = 2;
/** Lookups waiting beyond this fail at once: a resolver that does not answer must not grow a backlog. */
const MAX_WAITING = 64;

/**
 * Host name lookups for health probes. getaddrinfo runs on libuv's thread pool, which svcd's
 * LevelDB stores and file I/O share, and a resolver that does not answer holds a thread for its
 * whole timeout (5 s per attempt): probes of a few such hosts every interval would stall the
 * daemon's writes behind them. So at most MAX_RUNNING lookups run at once, the same question
 * asked again meanwhile shares the one in flight, and past MAX_WAITING a lookup fails at once
 * (the probe fails, as it would at its timeout). Addresses are never looked up (net checks first).
 */
export function probeLookup(lookup: LookupFn = dnsLookup): LookupFn {
  const inFlight = new Map<string, Callback[]>();
  const waiting: (() => void)[] = [];
  let running = 0;
  const next = () => {
    while (running < MAX_RUNNING && waiting.length > 0) waiting.shift()!();
  };
  return (hostname, options, callback) => {
    const key = `${hostname}\0${JSON.stringify(options)}`;
    const shared = inFlight.get(key);
    if (shared) {
      shared.push(callback);
      return;
    }
    if (running >= MAX_RUNNING && waiting.length >= MAX_WAITING) {
      const err: NodeJS.ErrnoException = Object.assign(new Error(`getaddrinfo EAI_AGAIN ${hostname} (${MAX_WAITING} host name lookups already waiting)`), { code: 'EAI_AGAIN' });
      process.nextTick(() => callback(err, undefined));
      return;
    }
    const callbacks = [callback];
    inFlight.set(key, callbacks);
    const run = () => {
      running++;
      lookup(hostname, options, (err, address, family) => {
        running--;
        inFlight.delete(key);
        for (const cb of callbacks) cb(err, address, family);
        next();
      });
    };
    if (running < MAX_RUNNING) run();
    else waiting.push(run);
  };
}
