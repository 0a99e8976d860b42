import type { NativeFunction, PluginLibrary } from '../host/open-library.js';

/** A token bucket's state; svcd keeps it, notify.so computes the next one (notify.h). */
export interface Bucket {
  tokens: number;
  stampMs: number;
}

/**
 * What the pure decision engine needs from notify.so: the token-bucket step and the glob match.
 * Unit tests of the engine call the real library through this port.
 */
export interface SuppressionKernel {
  /** Refills `bucket` to `nowMs`, then takes one token when `take` and one is there. Mutates `bucket`. */
  bucketTake(bucket: Bucket, nowMs: number, perMinute: number, burst: number, take: boolean): boolean;
  globMatch(pattern: string, name: string): boolean;
}

/** Typed calls into notify.so. */
export class NotifyNative implements SuppressionKernel {
  private readonly fn: (symbol: string) => NativeFunction;

  constructor(private readonly lib: PluginLibrary) {
    this.fn = (symbol) => {
      const f = lib.functions[symbol];
      if (!f) throw new TypeError(`notify plugin: ${symbol} is not bound (plugins/host/catalog.ts)`);
      return f;
    };
  }

  get version(): string {
    return this.lib.version;
  }

  bucketTake(bucket: Bucket, nowMs: number, perMinute: number, burst: number, take: boolean): boolean {
    const tokens = [bucket.tokens];
    const stamp = [bucket.stampMs];
    const rc: number = this.fn('notify_bucket_take')(tokens, stamp, nowMs, perMinute, burst, take ? 1 : 0);
    if (rc < 0) throw new TypeError(`notify plugin: invalid token bucket arguments (${JSON.stringify({ bucket, nowMs, perMinute, burst })})`);
    bucket.tokens = tokens[0] ?? 0;
    bucket.stampMs = stamp[0] ?? nowMs;
    return rc === 1;
  }

  globMatch(pattern: string, name: string): boolean {
    return this.fn('notify_glob_match')(pattern, name) === 1;
  }
}
