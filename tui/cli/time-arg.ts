import { CliError } from './errors.js';

/** What `--from` and `--to` take, for their help and their errors. */
export const TIME_ARG_HELP = 'Unix seconds, a date-time (2026-11-24 10:00, local unless it ends in Z or +01:00), or a time ago (90s, 15m, 2h, 3d, 1w)';

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };

/**
 * A `--from`/`--to` value as Unix seconds, for the API's `from`/`to`: the times the tables show
 * (`2026-11-24 23:18:48Z`) can be pasted back, and "the last two hours" is `--from 2h`. A date
 * without a zone is local time, as date(1) and journalctl read it. Bad input is a usage error
 * (exit 2) naming the flag.
 */
export function timeArg(value: string | undefined, flag: string, now = Date.now()): string | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  const seconds = unixSeconds(text, now);
  if (seconds === null) throw new CliError(`${flag}: expected ${TIME_ARG_HELP}, got '${value}'`, 2);
  if (seconds < 0) throw new CliError(`${flag}: must be 1970 or later, got '${value}'`, 2);
  return String(seconds);
}

function unixSeconds(text: string, now: number): number | null {
  if (/^-?\d+$/.test(text)) return Number(text);
  // "2h", "2h ago", "-2h": that long before now.
  const ago = /^-?(\d+(?:\.\d+)?)\s*([smhdw])(?:\s+ago)?$/i.exec(text);
  if (ago) return Math.floor((now - Number(ago[1]) * UNIT_SECONDS[ago[2].toLowerCase()] * 1000) / 1000);
  const word = text.toLowerCase();
  if (word === 'now') return Math.floor(now / 1000);
  if (word === 'today' || word === 'yesterday') {
    const day = new Date(now);
    day.setHours(0, 0, 0, 0);
    if (word === 'yesterday') day.setDate(day.getDate() - 1);
    return Math.floor(day.getTime() / 1000);
  }
  return dateTime(text);
}

/** `YYYY-MM-DD`, with `[T ]HH:MM[:SS[.fff]]` and a zone (`Z`, `+01:00`) optional; checked field by field. */
function dateTime(text: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4] ?? '0', m[5] ?? '0', m[6] ?? '0'].map(Number);
  const ms = Number((m[7] ?? '0').padEnd(3, '0'));
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return null;
  const zone = m[8];
  const offset = zone === undefined ? 0 : zoneOffsetMs(zone);
  if (offset === null) return null;
  // setFullYear, not the Date constructor: that reads years 0 to 99 as 1900 to 1999.
  const d = new Date(0);
  if (zone === undefined) {
    d.setFullYear(year, month - 1, day);
    d.setHours(hour, minute, second, ms);
    if (d.getDate() !== day) return null; // 31 April rolled into May
  } else {
    d.setUTCFullYear(year, month - 1, day);
    d.setUTCHours(hour, minute, second, ms);
    if (d.getUTCDate() !== day) return null;
  }
  return Math.floor((d.getTime() - offset) / 1000);
}

/** A zone's offset from UTC in ms, or null for one out of range (`+01:99`). */
function zoneOffsetMs(zone: string): number | null {
  if (zone.toUpperCase() === 'Z') return 0;
  const digits = zone.replace(':', '');
  const sign = digits.startsWith('-') ? -1 : 1;
  const [hours, minutes] = [Number(digits.slice(1, 3)), Number(digits.slice(3, 5))];
  if (hours > 23 || minutes > 59) return null;
  return sign * (hours * 60 + minutes) * 60_000;
}
