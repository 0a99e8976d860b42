import { useEffect, useRef, useState } from 'react';
import type { EventRecord } from '../../../api/wire.js';
import type { DashboardClient } from '../client.js';

/** After a change that records events, wait this long so the burst is read once. */
const SETTLE_MS = 250;

/**
 * The newest events (optionally of one type): read when `changed` changes (program statuses:
 * what records events), and every `everyMs` for the rest. Keeps the last good list on errors,
 * and the same list when nothing new arrived (no redraw). One request at a time.
 */
export function useEvents(client: DashboardClient, type: string | null, limit: number, everyMs: number, changed: unknown): EventRecord[] {
  const [events, setEvents] = useState<EventRecord[]>([]);
  const kick = useRef<() => void>(() => undefined);
  useEffect(() => {
    let stopped = false;
    let timer: NodeJS.Timeout | undefined;
    let loading = false;
    let again = false;
    const load = async () => {
      clearTimeout(timer);
      if (loading) {
        again = true;
        return;
      }
      loading = true;
      try {
        const rows = await client.events({ type: type ?? undefined, limit });
        if (!stopped) setEvents((old) => (sameIds(old, rows) ? old : rows));
      } catch {
        // Shown by the watch stream as a disconnection.
      }
      loading = false;
      if (stopped) return;
      if (again) {
        again = false;
        return void load();
      }
      timer = setTimeout(() => void load(), everyMs);
    };
    kick.current = () => {
      clearTimeout(timer);
      timer = setTimeout(() => void load(), SETTLE_MS);
    };
    void load();
    return () => {
      stopped = true;
      clearTimeout(timer);
      kick.current = () => undefined;
    };
  }, [client, type, limit, everyMs]);
  useEffect(() => kick.current(), [changed]);
  return events;
}

/** Event records never change once written: the same ids are the same list. */
function sameIds(a: EventRecord[], b: EventRecord[]): boolean {
  return a.length === b.length && a.every((e, i) => e.id === b[i]?.id);
}
