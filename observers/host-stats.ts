import { readFile } from 'node:fs/promises';

/** Raw host counters: cumulative CPU jiffies and memory from /proc/meminfo. */
export interface HostReading {
  cpuBusy: number;
  cpuTotal: number;
  memTotalBytes: number;
  memAvailableBytes: number;
}

/** Reads /proc/stat (first `cpu` line) and /proc/meminfo. */
export async function readHostStats(): Promise<HostReading> {
  const [stat, meminfo] = await Promise.all([readFile('/proc/stat', 'latin1'), readFile('/proc/meminfo', 'latin1')]);
  return { ...parseProcStat(stat), ...parseMeminfo(meminfo) };
}

export function parseProcStat(text: string): { cpuBusy: number; cpuTotal: number } {
  const line = text.split('\n').find((l) => l.startsWith('cpu '));
  if (!line) throw new Error('/proc/stat has no cpu line');
  // user nice system idle iowait irq softirq steal (guest time is already in user/nice)
  const f = line.trim().split(/\s+/).slice(1, 9).map(Number);
  const total = f.reduce((a, b) => a + (Number.isFinite(b) ? b : 0), 0);
  const idle = (f[3] ?? 0) + (f[4] ?? 0);
  return { cpuBusy: total - idle, cpuTotal: total };
}

export function parseMeminfo(text: string): { memTotalBytes: number; memAvailableBytes: number } {
  const kb = (key: string): number | undefined => {
    const m = new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(text);
    return m ? Number(m[1]) * 1024 : undefined;
  };
  const total = kb('MemTotal') ?? 0;
  const available = kb('MemAvailable') ?? (kb('MemFree') ?? 0) + (kb('Buffers') ?? 0) + (kb('Cached') ?? 0);
  return { memTotalBytes: total, memAvailableBytes: Math.min(total, available) };
}
