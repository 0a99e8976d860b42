/**
 * The spec leaves the bodies of the token, audit and notify routes open ("not shown"); the
 * panels accept a bare array or an object holding one (`{tokens: [...]}`, `{entries: [...]}`).
 */
export function listOf<T>(body: unknown, key: string): T[] {
  if (Array.isArray(body)) return body as T[];
  if (body && typeof body === 'object') {
    const inner = (body as Record<string, unknown>)[key];
    if (Array.isArray(inner)) return inner as T[];
    const anyList = Object.values(body).find(Array.isArray);
    if (anyList) return anyList as T[];
  }
  return [];
}

/** A cell of an untyped record: times (ts, *_at: Unix s or ms) as dates, objects as JSON. */
export function cellText(key: string, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' && (key === 'ts' || key.endsWith('_at') || key === 'time')) {
    const ms = value < 1e12 ? value * 1000 : value;
    return new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
  }
  if (typeof value === 'object') return JSON.stringify(value);
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The columns of a list of records: time-like keys first, then the rest in first-seen order. */
export function columnsOf(rows: readonly Record<string, unknown>[], max = 8): string[] {
  const keys: string[] = [];
  for (const r of rows.slice(0, 50)) for (const k of Object.keys(r)) if (!keys.includes(k)) keys.push(k);
  const timeLike = keys.filter((k) => k === 'ts' || k === 'time' || k.endsWith('_at'));
  return [...timeLike, ...keys.filter((k) => !timeLike.includes(k))].slice(0, max);
}
