import type { Http } from './http.js';
import type { ProgramConfig, ProgramRow, ProgramSummary } from './types.js';

/**
 * The live program list, behind one small interface so that its transport is one file: today it
 * polls `GET /api/v1/programs` every 2 s (one request at a time) and the stored configurations
 * (`GET /api/v1/stack`, for source, cron and health check) when the set of programs changes or
 * every 15 s. Switching to `GET /api/v1/watch` (snapshot, then changes) replaces this file only.
 */
export interface FeedState {
  rows: readonly ProgramRow[];
  /** Whether a first list has arrived. */
  loaded: boolean;
  /** The last failure while it lasts (the table shows it and keeps the last rows). */
  error: string | null;
  /** Unix ms of the last list. */
  at: number;
}

export interface ProgramFeed {
  /** Starts with the first subscriber, stops with the last. */
  subscribe(listener: () => void): () => void;
  current(): FeedState;
  /** Refresh now (after an action), without waiting for the next tick. */
  refresh(): void;
}

export interface FeedTiming {
  listMs: number;
  configMs: number;
  maxBackoffMs: number;
}

const TIMING: FeedTiming = { listMs: 2000, configMs: 15_000, maxBackoffMs: 10_000 };

interface ConfigBits {
  source: string | null;
  cron: string | null;
  check: string | null;
}

export function programFeed(http: Http, timing: FeedTiming = TIMING): ProgramFeed {
  let state: FeedState = { rows: [], loaded: false, error: null, at: 0 };
  const listeners = new Set<() => void>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running = false;
  let busy = false;
  let again = false;
  let failures = 0;
  let configs = new Map<string, ConfigBits>();
  let configsAt = 0;

  const publish = (next: FeedState) => {
    state = next;
    for (const l of listeners) l();
  };

  const loadConfigs = async (summaries: ProgramSummary[]) => {
    const unknown = summaries.some((p) => !configs.has(p.name));
    if (!unknown && Date.now() - configsAt < timing.configMs) return;
    try {
      const stack = await http.get<{ services: ProgramConfig[] }>('/api/v1/stack');
      configs = new Map(stack.services.map((c) => [c.name, bitsOf(c)]));
    } catch {
      // The columns stay as they were; the list itself is what must be live.
    }
    configsAt = Date.now();
  };

  const tick = async () => {
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    clearTimeout(timer);
    let delay = timing.listMs;
    try {
      const summaries = await http.get<ProgramSummary[]>('/api/v1/programs');
      await loadConfigs(summaries);
      failures = 0;
      publish({ rows: summaries.map((p) => ({ ...p, ...(configs.get(p.name) ?? { source: null, cron: null, check: null }) })), loaded: true, error: null, at: Date.now() });
    } catch (err) {
      failures++;
      delay = Math.min(timing.maxBackoffMs, timing.listMs * 2 ** (failures - 1));
      publish({ ...state, error: (err as Error).message });
    } finally {
      busy = false;
    }
    if (!running) return;
    if (again) {
      again = false;
      delay = 0;
    }
    timer = setTimeout(() => void tick(), delay);
  };

  return {
    subscribe(listener) {
      listeners.add(listener);
      if (!running) {
        running = true;
        void tick();
      }
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) {
          running = false;
          clearTimeout(timer);
        }
      };
    },
    current: () => state,
    refresh() {
      configsAt = 0;
      if (running) void tick();
    },
  };
}

function bitsOf(c: ProgramConfig): ConfigBits {
  const check = c.health_check as { type?: unknown; enabled?: unknown } | null | undefined;
  return {
    source: typeof c.source === 'string' && c.source ? c.source : null,
    cron: typeof c.cron === 'string' && c.cron ? c.cron : null,
    check: check && check.enabled !== false && typeof check.type === 'string' ? check.type : null,
  };
}
