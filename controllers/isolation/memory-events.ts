/** The counters of a cgroup's memory.events file this controller follows. */
export interface MemoryCounters {
  high: number;
  max: number;
  oom: number;
  oom_kill: number;
}

export const ZERO_COUNTERS: MemoryCounters = { high: 0, max: 0, oom: 0, oom_kill: 0 };

/** Parses memory.events (`key value` lines); unknown keys are ignored, missing ones are 0. */
export function parseMemoryEvents(text: string): MemoryCounters {
  const out = { ...ZERO_COUNTERS };
  for (const line of text.split('\n')) {
    const [key, value] = line.trim().split(/\s+/);
    if (key && value !== undefined && key in out && /^\d+$/.test(value)) out[key as keyof MemoryCounters] = Number(value);
  }
  return out;
}

/** What changed between two readings, as the events to record (spec: memory_pressure, memory_oom_kill). */
export interface MemoryEventPlan {
  /** high/max throttling events since the last reading; 0 = no memory_pressure event. */
  pressure: { high: number; max: number };
  /** OOM kills since the last reading; 0 = no memory_oom_kill event. */
  oomKills: number;
}

/** Counters only grow; a smaller one (a new cgroup) counts from zero. */
export function diffMemoryEvents(before: MemoryCounters, after: MemoryCounters): MemoryEventPlan {
  const d = (k: keyof MemoryCounters) => (after[k] >= before[k] ? after[k] - before[k] : after[k]);
  return { pressure: { high: d('high'), max: d('max') }, oomKills: d('oom_kill') };
}

/** The msg of a memory_pressure event. */
export function pressureMessage(p: MemoryEventPlan['pressure'], limit: number | undefined): string {
  const parts = [p.max > 0 ? `${p.max} time(s) at memory.max` : '', p.high > 0 ? `${p.high} time(s) over memory.high` : ''].filter(Boolean);
  return `memory pressure: ${parts.join(', ')}${limit !== undefined ? ` (memory_limit ${limit} bytes)` : ''}`;
}

/** The msg of a memory_oom_kill event. */
export function oomMessage(kills: number, limit: number | undefined): string {
  return `cgroup OOM kill: ${kills} process(es) killed with signal 9${limit !== undefined ? ` at memory_limit ${limit} bytes` : ''}`;
}
