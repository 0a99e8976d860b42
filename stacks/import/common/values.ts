/** Values as the source tools write them, read into svc units. */

const TRUE = new Set(['true', 'yes', 'on', '1']);
const FALSE = new Set(['false', 'no', 'off', '0']);

/** supervisord/INI booleans (`true`, `yes`, `on`, `1` and their opposites), else null. */
export function iniBoolean(value: string): boolean | null {
  const v = value.trim().toLowerCase();
  return TRUE.has(v) ? true : FALSE.has(v) ? false : null;
}

/** A whole number written as digits, else null. */
export function wholeNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isInteger(value) && value >= 0 ? value : null;
  if (typeof value === 'string' && /^\s*\d+\s*$/.test(value)) return Number(value);
  return null;
}

const TIME_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A PM2 duration: a number of milliseconds, or a string like `500ms`, `10s`, `1m`, `2h`. */
export function millis(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : null;
  if (typeof value !== 'string') return null;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/i.exec(value);
  if (!m) return null;
  return Number(m[1]) * (TIME_UNITS[(m[2] ?? 'ms').toLowerCase()] ?? 1);
}

/** Whole seconds that are at least `ms` (svc fields are integer seconds). */
export function ceilSeconds(ms: number): number {
  return Math.ceil(ms / 1000 - 1e-9);
}

const SIZE_UNITS: Record<string, number> = { '': 1, b: 1, k: 1024, kb: 1024, m: 1024 ** 2, mb: 1024 ** 2, g: 1024 ** 3, gb: 1024 ** 3 };

/** A size in bytes: a number, or `200M`, `1G`, `512K` (PM2's max_memory_restart), else null. */
export function bytes(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? Math.round(value) : null;
  if (typeof value !== 'string') return null;
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmg]?b?)\s*$/i.exec(value);
  if (!m) return null;
  const unit = SIZE_UNITS[(m[2] ?? '').toLowerCase()];
  return unit === undefined ? null : Math.round(Number(m[1]) * unit);
}

/** Signal names as svc writes them (`TERM`), from `SIGTERM`, `term`, `15`; null when unknown. */
export function signalName(value: unknown): string | null {
  const NUMBERS: Record<number, string> = { 1: 'HUP', 2: 'INT', 3: 'QUIT', 9: 'KILL', 10: 'USR1', 12: 'USR2', 15: 'TERM' };
  if (typeof value === 'number') return NUMBERS[value] ?? null;
  if (typeof value !== 'string') return null;
  const v = value.trim().toUpperCase().replace(/^SIG/, '');
  if (/^\d+$/.test(v)) return NUMBERS[Number(v)] ?? null;
  return /^[A-Z0-9]+$/.test(v) ? v : null;
}

/** A value for a message: strings as they are, anything else as JSON. */
export function show(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
}

/**
 * A log path that names the supervisor's own output rather than a file (`/dev/stdout`,
 * `/dev/stderr`, `/dev/fd/1`, `/proc/self/fd/2`): the container-log idiom of supervisord and
 * pm2-runtime images. svc has no such target; it keeps the output in its log files.
 */
export function isOwnOutput(path: string): boolean {
  return /^\/(dev\/(stdout|stderr|fd\/[12])|proc\/self\/fd\/[12])$/.test(path.trim());
}
