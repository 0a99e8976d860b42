import { withDefaults, type ProgramRecord } from './program.js';

/**
 * Splits programs into stop levels: dependants before what they depend on, and within that,
 * higher `priority` first. Each level is stopped (in parallel) before the next is asked.
 */
export function stopLevels(records: ProgramRecord[]): ProgramRecord[][] {
  const byName = new Map(records.map((r) => [r.config.name, r]));
  // rank: length of the longest chain of dependants above a program, within this set.
  const dependants = new Map<string, string[]>();
  for (const r of records) for (const dep of r.config.depends_on ?? []) if (byName.has(dep)) pushTo(dependants, dep, r.config.name);
  const rank = new Map<string, number>();
  const rankOf = (name: string, seen: Set<string>): number => {
    const known = rank.get(name);
    if (known !== undefined) return known;
    if (seen.has(name)) return 0; // cycles are refused on write; never loop on bad data
    seen.add(name);
    const value = Math.max(-1, ...(dependants.get(name) ?? []).map((d) => rankOf(d, seen))) + 1;
    rank.set(name, value);
    return value;
  };
  const levels = new Map<string, ProgramRecord[]>();
  for (const r of records) {
    const key = `${rankOf(r.config.name, new Set())}:${withDefaults(r.config).priority}`;
    pushTo(levels, key, r);
  }
  return [...levels.entries()]
    .sort(([a], [b]) => {
      const [ra, pa] = a.split(':').map(Number) as [number, number];
      const [rb, pb] = b.split(':').map(Number) as [number, number];
      return ra - rb || pb - pa;
    })
    .map(([, level]) => level);
}

/** Appends in place: copying the list on every add made one level of 500 programs O(n²). */
function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
