import type { Http, HttpOptions } from './http.js';
import type { ProgramConfig, ProgramRow, ProgramSummary } from './types.js';
import { readWatch, type WatchMessage } from './watch-stream.js';

/**
 * The live program list, behind one small interface so that its transport is one file. It follows
 * `GET /api/v1/watch` (a snapshot, then each change as it happens: no polling) and reads the stored
 * configurations (`GET /api/v1/stack`, for the cron and health check columns) when a program it
 * has not seen appears, or after an action. A broken stream is reopened after 1, 2, 4, then every
 * 5 s, keeping the last rows and showing the error meanwhile.
 */
export interface FeedState {
  rows: readonly ProgramRow[];
  /** Whether a first list has arrived. */
  loaded: boolean;
  /** The last failure while it lasts (the table shows it and keeps the last rows). */
  error: string | null;
  /** Unix ms of the last message (a `system` line comes every 3 s, so this also ticks when nothing changes). */
  at: number;
  /** Unix ms of the last message that arrived without a failure: what the rows show while `error` lasts. */
  liveAt: number;
}

export interface ProgramFeed {
  /** Starts with the first subscriber, stops with the last. */
  subscribe(listener: () => void): () => void;
  current(): FeedState;
  /** Re-read the stored configurations now (after an action); the rows follow the stream by themselves. */
  refresh(): void;
}

export interface FeedTiming {
  /** Reconnect delays: 1, 2, 4 s, then this. */
  maxBackoffMs: number;
  /** Silence after which the stream is taken as gone. */
  silenceMs: number;
}

const TIMING: FeedTiming = { maxBackoffMs: 5000, silenceMs: 10_000 };

interface ConfigBits {
  source: string | null;
  cron: string | null;
  check: string | null;
}

const NO_BITS: ConfigBits = { source: null, cron: null, check: null };

export function programFeed(http: Http, auth: HttpOptions, timing: FeedTiming = TIMING): ProgramFeed {
  let state: FeedState = { rows: [], loaded: false, error: null, at: 0, liveAt: 0 };
  const listeners = new Set<() => void>();
  const programs = new Map<string, ProgramSummary & { source: string | null }>();
  let configs = new Map<string, ConfigBits>();
  let configsLoading = false;
  let configsAgain = false;
  let stop: AbortController | null = null;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;

  const publish = (error: string | null = state.error) => {
    const rows = [...programs.values()].map((p) => ({ ...p, ...(configs.get(p.name) ?? NO_BITS), source: p.source }));
    const now = Date.now();
    state = { rows, loaded: state.loaded || error === null, error, at: now, liveAt: error === null ? now : state.liveAt };
    for (const l of listeners) l();
  };

  const loadConfigs = async () => {
    if (configsLoading) {
      configsAgain = true;
      return;
    }
    configsLoading = true;
    try {
      const stack = await http.get<{ services: ProgramConfig[] }>('/api/v1/stack');
      configs = new Map(stack.services.map((c) => [c.name, bitsOf(c)]));
      publish();
    } catch {
      // The columns stay as they were; the rows themselves are what must be live.
    } finally {
      configsLoading = false;
    }
    if (configsAgain) {
      configsAgain = false;
      void loadConfigs();
    }
  };

  const apply = (m: WatchMessage) => {
    let unknown = false;
    if (m.type === 'snapshot') {
      programs.clear();
      for (const p of m.programs) programs.set(p.id, p);
      unknown = m.programs.some((p) => !p.removed && !configs.has(p.name));
      failures = 0;
      state = { ...state, loaded: true };
    } else if (m.type === 'program') {
      unknown = !m.program.removed && !configs.has(m.program.name);
      programs.set(m.program.id, m.program);
    } else if (m.type === 'removed') {
      programs.delete(m.id);
    }
    publish(null);
    if (unknown) void loadConfigs();
  };

  const connect = async () => {
    const controller = (stop = new AbortController());
    let error: string;
    try {
      await readWatch(auth, apply, controller.signal, timing.silenceMs);
      error = 'the watch stream ended';
    } catch (err) {
      error = (err as Error).message;
    }
    if (controller.signal.aborted) return;
    failures++;
    publish(error);
    retry = setTimeout(() => void connect(), Math.min(timing.maxBackoffMs, 1000 * 2 ** (failures - 1)));
  };

  return {
    subscribe(listener) {
      listeners.add(listener);
      if (!stop) void connect();
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) {
          stop?.abort();
          stop = null;
          clearTimeout(retry);
        }
      };
    },
    current: () => state,
    refresh() {
      if (stop) void loadConfigs();
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
