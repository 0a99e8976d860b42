/** How numbers and times read in the dashboard (the same units as the CLI). */

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

export function bytes(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n) || n <= 0) return '-';
  let v = n;
  let u = 0;
  while (v >= 1024 && u < UNITS.length - 1) {
    v /= 1024;
    u++;
  }
  return `${u === 0 ? v : v < 10 ? v.toFixed(1) : Math.round(v)} ${UNITS[u]}`;
}

/** 45s, 12m3s, 5h2m, 3d4h. */
export function duration(secs: number | null | undefined): string {
  if (secs === null || secs === undefined || !Number.isFinite(secs) || secs < 0) return '-';
  const s = Math.floor(secs);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${s % 60}s`;
  if (s < 86400) return `${Math.floor(s / 3600)}h${Math.floor((s % 3600) / 60)}m`;
  return `${Math.floor(s / 86400)}d${Math.floor((s % 86400) / 3600)}h`;
}

export function percent(n: number | null | undefined): string {
  return n === null || n === undefined || !Number.isFinite(n) ? '-' : `${n.toFixed(1)}%`;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Local `YYYY-MM-DD HH:MM:SS` of Unix milliseconds. */
export function dateTime(ms: number | null | undefined): string {
  if (!ms) return '-';
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** `HH:MM:SS` today, `MM-DD HH:MM` on another day (relative to `now`). */
export function shortTime(ms: number | null | undefined, now: number): string {
  if (!ms) return '-';
  const d = new Date(ms);
  const n = new Date(now);
  const sameDay = d.getFullYear() === n.getFullYear() && d.getMonth() === n.getMonth() && d.getDate() === n.getDate();
  return sameDay ? `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}` : `${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** "in 3m12s" / "5s ago" for a time relative to now. */
export function relative(ms: number | null | undefined, now: number): string {
  if (!ms) return '-';
  const secs = Math.round((ms - now) / 1000);
  return secs >= 0 ? `in ${duration(secs)}` : `${duration(-secs)} ago`;
}
