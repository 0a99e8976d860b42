import { useEffect, useState } from 'react';
import type { ProgramDetail, WatchProgram } from '../../../api/wire.js';
import type { DashboardClient } from '../client.js';

/** What the detail pane shows: uptime and usage tick on every read and are shown by the table. */
function shownPart(d: ProgramDetail): unknown {
  return { ...d, cpu_usage: 0, mem_usage: 0, state: { ...d.state, uptime_secs: 0, cpu_usage: 0, mem_usage: 0 } };
}

/**
 * The selected program's detail (configuration, last exit, probes): read when the selection
 * changes or its row changes, and every `everyMs` while it stays selected (probe results change
 * without the row). An answer equal to the shown one keeps the same object (no redraw).
 */
export function useDetail(client: DashboardClient, entry: WatchProgram | undefined, everyMs: number): ProgramDetail | undefined {
  const [shown, setShown] = useState<{ detail: ProgramDetail; json: string } | null>(null);
  const id = entry?.id ?? null;
  useEffect(() => {
    if (!id) return;
    let live = true;
    let timer: NodeJS.Timeout | undefined;
    const load = async () => {
      try {
        const detail = await client.detail(id);
        const json = JSON.stringify(shownPart(detail));
        if (live) setShown((old) => (old?.json === json ? old : { detail, json }));
      } catch {
        // The watch stream reports a lost daemon; the pane keeps what it has.
      }
      if (live) timer = setTimeout(() => void load(), everyMs);
    };
    void load();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [client, id, entry, everyMs]);
  return shown?.detail.id === id ? shown?.detail : undefined;
}
