import { useEffect, useState } from 'react';
import type { SystemStats } from '../../../api/wire.js';
import type { DashboardClient } from '../client.js';
import { hostFigures } from '../components/text.js';
import type { UiEvent } from '../state/reduce.js';

export interface DaemonInfo {
  version: string | null;
  stats: SystemStats | null;
}

/** A host figure older than this is replaced even if it barely moved (ms). */
const HOST_REFRESH_MS = 30_000;

/**
 * Whether the status line may keep showing `shown` instead of `next`: the same text, or a move
 * too small to matter (under 5 points of CPU and 1 % of memory) for less than HOST_REFRESH_MS.
 * The jitter of an idle host is then not redrawn every 3 s; a real change shows at once.
 */
export function keepHostFigures(shown: SystemStats | null, next: SystemStats | null, shownAt: number, now: number): boolean {
  if (shown === next || hostFigures(shown) === hostFigures(next)) return true;
  if (!shown || !next || now - shownAt >= HOST_REFRESH_MS) return false;
  const memStep = next.memory_total_bytes / 100;
  return Math.abs(shown.cpu_percent - next.cpu_percent) < 5 && Math.abs(shown.memory_used_bytes - next.memory_used_bytes) < memStep;
}

/**
 * Follows the watch stream: the snapshot replaces the table, each change updates one row, the
 * system line feeds the status line. A lost link shows as disconnected (the client retries with
 * backoff); the next snapshot reconnects and re-reads the daemon version. A refused credential
 * goes to `refused` (the dashboard ends with it, as svc ui's start does).
 */
export function useWatch(client: DashboardClient, dispatch: (e: UiEvent) => void, refused: (error: Error) => void): DaemonInfo {
  const [info, setInfo] = useState<DaemonInfo>({ version: null, stats: null });
  useEffect(() => {
    let live = true;
    let version: 'needed' | 'reading' | 'known' = 'needed';
    const readVersion = () => {
      if (version !== 'needed') return;
      version = 'reading';
      client
        .health()
        .then((h) => {
          version = 'known';
          if (live) setInfo((old) => (old.version === h.version ? old : { ...old, version: h.version }));
        })
        .catch(() => {
          version = 'needed'; // tried again at the next system line
        });
    };
    let shown: SystemStats | null = null;
    let shownAt = 0;
    const stats = (next: SystemStats | null) => {
      const now = Date.now();
      if (keepHostFigures(shown, next, shownAt, now)) return;
      [shown, shownAt] = [next, now];
      setInfo((old) => ({ ...old, stats: next }));
    };
    const stop = client.watch({
      snapshot(programs, system) {
        dispatch({ type: 'programs', programs });
        stats(system);
        readVersion();
      },
      program: (program) => dispatch({ type: 'program', program }),
      removed: (id) => dispatch({ type: 'removed', id }),
      system(system) {
        stats(system);
        readVersion();
      },
      disconnected(error, retryMs) {
        if (version === 'known') version = 'needed';
        dispatch({ type: 'disconnected', error, retryMs });
        stats(null);
      },
      refused,
    });
    return () => {
      live = false;
      stop();
    };
  }, [client, dispatch, refused]);
  return info;
}
