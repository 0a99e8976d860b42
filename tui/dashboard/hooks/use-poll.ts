import { useEffect, useState } from 'react';
import type { DashboardClient } from '../client.js';
import type { UiEvent } from '../state/reduce.js';
import type { SystemStats } from '../types.js';

export interface PollTiming {
  /** List (and stats) refresh interval; the list is never asked for more often. */
  pollMs: number;
  /** Ceiling of the retry backoff while svcd is unreachable. */
  maxBackoffMs: number;
}

export interface DaemonInfo {
  version: string | null;
  stats: SystemStats | null;
}

/**
 * Polls the program list (and system stats) one request at a time. A failure marks the link
 * disconnected and retries with doubling delays up to `maxBackoffMs`; the next success
 * reconnects by itself and re-reads the daemon version.
 */
export function usePoll(client: DashboardClient, dispatch: (e: UiEvent) => void, timing: PollTiming): DaemonInfo {
  const [info, setInfo] = useState<DaemonInfo>({ version: null, stats: null });
  useEffect(() => {
    let stopped = false;
    let timer: NodeJS.Timeout | undefined;
    let failures = 0;
    let needVersion = true;
    const loop = async () => {
      try {
        const [programs, stats] = await Promise.all([client.list(), client.stats().catch(() => null)]);
        if (stopped) return;
        dispatch({ type: 'programs', programs });
        failures = 0;
        let version: string | null | undefined;
        if (needVersion) {
          version = (await client.health().catch(() => null))?.version ?? null;
          needVersion = version === null;
        }
        if (stopped) return;
        setInfo((old) => ({ version: version === undefined ? old.version : version, stats }));
        timer = setTimeout(() => void loop(), timing.pollMs);
      } catch (err) {
        if (stopped) return;
        failures++;
        needVersion = true;
        const retryMs = Math.min(timing.maxBackoffMs, timing.pollMs * 2 ** (failures - 1));
        dispatch({ type: 'disconnected', error: (err as Error).message, retryMs });
        setInfo((old) => (old.stats === null ? old : { ...old, stats: null }));
        timer = setTimeout(() => void loop(), retryMs);
      }
    };
    void loop();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [client, dispatch, timing.pollMs, timing.maxBackoffMs]);
  return info;
}
