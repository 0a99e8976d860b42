/** The host's figures served by `GET /api/v1/system/stats` (spec: System stats). */
export interface SystemStats {
  /** Busy share of all cores since the previous sample, 0-100. */
  cpu_percent: number;
  /** Total minus available memory, bytes. */
  memory_used_bytes: number;
  memory_total_bytes: number;
  /** Unix seconds of the sample. */
  timestamp: number;
}
