import { useEffect, useState } from 'react';

/** How long an uptime shown by `uptime()` keeps its text: 1 s in the first minute, then 1 min, then 1 h. */
function unitMs(elapsedMs: number): number {
  if (elapsedMs >= 86_400_000) return 3_600_000;
  if (elapsedMs >= 60_000) return 60_000;
  return 1000;
}

/** When the first of the uptimes counted from `startedAt` (Unix ms) shows a new text. */
export function nextUptimeChange(startedAt: readonly number[], now: number): number | null {
  let next: number | null = null;
  for (const s of startedAt) {
    const elapsed = Math.max(0, now - s);
    const unit = unitMs(elapsed);
    const at = s + (Math.floor(elapsed / unit) + 1) * unit;
    if (next === null || at < next) next = at;
  }
  return next;
}

/**
 * The time the table's uptime cells are computed from. It moves only when one of the shown
 * uptimes would read differently, so an idle table redraws once a minute (once an hour when every
 * program is up for days), not every second.
 */
export function useNow(startedAt: readonly number[]): number {
  const [now, setNow] = useState(() => Date.now());
  const key = startedAt.join(',');
  useEffect(() => {
    const next = nextUptimeChange(startedAt, Date.now());
    if (next === null) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.max(0, next - Date.now()) + 5);
    return () => clearTimeout(timer);
  }, [key, now]);
  return now;
}
