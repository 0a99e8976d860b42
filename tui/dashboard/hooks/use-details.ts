import { useEffect, useRef, useState } from 'react';
import type { DashboardClient } from '../client.js';
import type { ProgramDetail } from '../types.js';

/**
 * Details of the rows on screen only, fetched lazily: the selected program at every refresh,
 * the other visible ones when missing or older than `ttlMs`. One request per id at a time.
 */
export function useDetails(client: DashboardClient, visibleIds: string[], selectedId: string | null, refresh: unknown, ttlMs: number) {
  const [details, setDetails] = useState<ReadonlyMap<string, ProgramDetail>>(new Map());
  const fetchedAt = useRef(new Map<string, number>());
  const inFlight = useRef(new Set<string>());
  const key = visibleIds.join(',');
  useEffect(() => {
    let live = true;
    const now = Date.now();
    for (const id of visibleIds) {
      const age = now - (fetchedAt.current.get(id) ?? 0);
      if (inFlight.current.has(id) || (id !== selectedId && age < ttlMs)) continue;
      inFlight.current.add(id);
      client
        .detail(id)
        .then((d) => {
          fetchedAt.current.set(id, Date.now());
          if (live) setDetails((old) => new Map(old).set(id, d));
        })
        .catch(() => fetchedAt.current.set(id, Date.now()))
        .finally(() => inFlight.current.delete(id));
    }
    return () => {
      live = false;
    };
  }, [client, key, selectedId, refresh, ttlMs]);
  return details;
}
