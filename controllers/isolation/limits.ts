/** The part of a program's config this controller reads (spec: resource_limits). */
export interface Limits {
  /** Bytes; the cgroup's memory.max. */
  memory_limit?: number;
  /** Percent of one core (100 = one core); cpu.max's quota over its period. */
  cpu_quota?: number;
}

/** cpu.max's period in microseconds (the kernel's default). */
export const CPU_PERIOD_US = 100_000;
/** The kernel's smallest quota (1 ms). */
const MIN_QUOTA_US = 1000;

export type LimitFile = 'cpu.max' | 'memory.max';

/** The cpu.max line for a quota: `<quota> <period>`, or `max <period>` without one. */
export function cpuMax(cpuQuota: number | undefined): string {
  if (cpuQuota === undefined) return `max ${CPU_PERIOD_US}`;
  return `${Math.max(MIN_QUOTA_US, Math.round((cpuQuota / 100) * CPU_PERIOD_US))} ${CPU_PERIOD_US}`;
}

/** The memory.max value: whole bytes, or `max` without a limit. */
export function memoryMax(memoryLimit: number | undefined): string {
  return memoryLimit === undefined ? 'max' : String(Math.floor(memoryLimit));
}

/** Both files with their values: a limit that is absent is written as `max` (lifted). */
export function limitFiles(limits: Limits): [LimitFile, string][] {
  return [
    ['cpu.max', cpuMax(limits.cpu_quota)],
    ['memory.max', memoryMax(limits.memory_limit)],
  ];
}

/** The files whose value changes from `applied` to `desired` (a live update writes only these). */
export function changedFiles(applied: Limits, desired: Limits): [LimitFile, string][] {
  const before = new Map(limitFiles(applied));
  return limitFiles(desired).filter(([file, value]) => before.get(file) !== value);
}

/** resource_limits with at least one limit set; undefined otherwise (nothing to enforce). */
export function limitsOf(config: { resource_limits?: Limits } | undefined): Limits | undefined {
  const l = config?.resource_limits;
  if (!l || (l.memory_limit === undefined && l.cpu_quota === undefined)) return undefined;
  return { ...(l.memory_limit !== undefined ? { memory_limit: l.memory_limit } : {}), ...(l.cpu_quota !== undefined ? { cpu_quota: l.cpu_quota } : {}) };
}
