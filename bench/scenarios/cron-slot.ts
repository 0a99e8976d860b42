import type { SvcManager } from '../managers/svc.js';
import { sleep, waitFor } from '../proc.js';

interface Started {
  ts_ms: number;
  program_name: string | null;
}

/**
 * svc only (no peer runs cron jobs): N cron programs (`/bin/true`) all due on the same second.
 * The slot is the first whole second at least `leadSecs` after they are all registered; returns
 * ms from the slot until the last of the N `cron_started` events (the event log's own stamps).
 */
export async function cronSlot(m: SvcManager, n: number, leadSecs = 5, onOffsets?: (sortedMs: number[]) => void, atSlot?: () => void, beforeSlot?: () => Promise<void>): Promise<number> {
  // 20 s ahead: registering 1,000 programs on a loaded machine takes a few seconds.
  const slot = Math.ceil((Date.now() + 20_000) / 1000) * 1000;
  const second = new Date(slot).getUTCSeconds();
  const t0 = Date.now();
  await m.api('POST', '/api/v1/programs', Array.from({ length: n }, (_, i) => ({ name: `cron-${i}`, command: '/bin/true', cron: `${second} * * * * *`, cron_tz: 'UTC' })));
  if (Date.now() > slot - leadSecs * 1000) throw new Error(`registering ${n} cron programs took ${Date.now() - t0} ms: past the slot`);
  if (beforeSlot) {
    await sleep(Math.max(0, slot - 1500 - Date.now())); // a profiler attaches in time for the slot
    await beforeSlot();
  }
  await sleep(Math.max(0, slot - Date.now()));
  atSlot?.();
  // Wait on the in-memory counter (cheap), then read the N records once: polling the event list
  // itself every 250 ms cost svcd more CPU than the starts it measures.
  await waitFor(
    async () => ((await m.api<{ by_type: Record<string, number> }>('GET', '/api/v1/events/stats')).by_type.cron_started ?? 0) >= n,
    `${n} cron_started`,
    120_000,
    250,
  );
  const seen = new Map<string, number>();
  await waitFor(
    async () => {
      for (let offset = 0; ; offset += 1000) {
        const page = await m.api<Started[]>('GET', `/api/v1/events?event_type=cron_started&limit=1000&offset=${offset}&from=${Math.floor(slot / 1000) - 1}`);
        for (const e of page) if (e.program_name) seen.set(e.program_name, Math.max(seen.get(e.program_name) ?? 0, e.ts_ms));
        if (page.length < 1000) break;
      }
      return seen.size >= n;
    },
    `${n} cron_started records`,
    60_000,
    250,
  );
  onOffsets?.([...seen.values()].map((t) => t - slot).sort((a, b) => a - b));
  return Math.max(...seen.values()) - slot;
}
