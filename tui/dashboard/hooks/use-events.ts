import { useEffect, useState } from 'react';
import type { DashboardClient } from '../client.js';
import type { EventItem } from '../types.js';

/** The newest events (optionally of one type), re-read every `everyMs`; keeps the last good list on errors. */
export function useEvents(client: DashboardClient, type: string | null, limit: number, everyMs: number): EventItem[] {
  const [events, setEvents] = useState<EventItem[]>([]);
  useEffect(() => {
    let stopped = false;
    let timer: NodeJS.Timeout | undefined;
    const load = async () => {
      try {
        const rows = await client.events({ type: type ?? undefined, limit });
        if (!stopped) setEvents(rows);
      } catch {
        // Shown by the list poll as a disconnection.
      }
      if (!stopped) timer = setTimeout(() => void load(), everyMs);
    };
    void load();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [client, type, limit, everyMs]);
  return events;
}
