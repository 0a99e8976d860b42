import { useEffect, useState } from 'react';
import type { EventRecord } from '../../../api/wire.js';
import type { DashboardClient } from '../client.js';

/**
 * The newest events (optionally of one type), re-read every `everyMs`; keeps the last good list
 * on errors, and the same list when nothing new arrived (no redraw).
 */
export function useEvents(client: DashboardClient, type: string | null, limit: number, everyMs: number): EventRecord[] {
  const [events, setEvents] = useState<EventRecord[]>([]);
  useEffect(() => {
    let stopped = false;
    let timer: NodeJS.Timeout | undefined;
    const load = async () => {
      try {
        const rows = await client.events({ type: type ?? undefined, limit });
        if (!stopped) setEvents((old) => (sameIds(old, rows) ? old : rows));
      } catch {
        // Shown by the watch stream as a disconnection.
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

/** Event records never change once written: the same ids are the same list. */
function sameIds(a: EventRecord[], b: EventRecord[]): boolean {
  return a.length === b.length && a.every((e, i) => e.id === b[i]?.id);
}
