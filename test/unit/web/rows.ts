import type { ProgramRow } from '../../../web/src/api/types.js';

/** A table row with defaults; tests set only what they look at. */
export function row(name: string, over: Partial<ProgramRow> = {}): ProgramRow {
  return { id: `id-${name}`, name, status: 'Running', pid: 100, cpu_usage: 0, mem_usage: 0, restarts: 0, started_at: 1000, source: null, cron: null, check: null, ...over };
}
