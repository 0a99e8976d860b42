import { useEffect, useState } from 'react';
import type { SystemStats } from '../../../api/wire.js';
import type { DashboardClient } from '../client.js';
import type { UiEvent } from '../state/reduce.js';

export interface DaemonInfo {
  version: string | null;
  stats: SystemStats | null;
}

/** Same figures as shown (the sample time alone is no reason to redraw). */
function sameStats(a: SystemStats | null, b: SystemStats | null): boolean {
  return a === b || (a !== null && b !== null && a.cpu_percent === b.cpu_percent && a.memory_used_bytes === b.memory_used_bytes && a.memory_total_bytes === b.memory_total_bytes);
}

/**
 * Follows the watch stream: the snapshot replaces the table, each change updates one row, the
 * system line feeds the status line. A lost link shows as disconnected (the client retries with
 * backoff); the next snapshot reconnects and re-reads the daemon version.
 */
export function useWatch(client: DashboardClient, dispatch: (e: UiEvent) => void): DaemonInfo {
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
    const stats = (next: SystemStats | null) => setInfo((old) => (sameStats(old.stats, next) ? old : { ...old, stats: next }));
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
    });
    return () => {
      live = false;
      stop();
    };
  }, [client, dispatch]);
  return info;
}
