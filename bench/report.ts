import { median, ratio } from './stats.js';

export const MANAGERS = ['svc', 'pm2', 'supervisord', 's6'] as const;
const PEERS = MANAGERS.filter((m) => m !== 'svc');
export type ManagerName = (typeof MANAGERS)[number];

/** One measured quantity: samples per manager (one per repetition); missing = not measured. */
export interface Metric {
  scenario: string;
  what: string;
  unit: 'ms' | 'MiB' | '%core' | 'count' | '/min' | 'bytes';
  samples: Partial<Record<ManagerName, number[]>>;
  /** The physical floor for this quantity, when there is one (S0, kernel kill floor). */
  floor?: number[];
  /** The target for svc, as written in the issue (free text). */
  target?: string;
}

/** Formats a number for a table cell: '-' when missing, fewer decimals as values grow. */
export function formatValue(v: number): string {
  if (!Number.isFinite(v)) return '-';
  const a = Math.abs(v);
  if (a >= 100) return v.toFixed(0);
  if (a >= 10) return v.toFixed(1);
  if (a >= 1) return v.toFixed(2);
  return v.toFixed(3);
}

/** A ratio with two decimals, or two significant digits below 0.1 (0.0019x, not 0.00x). */
export function formatRatio(r: number): string {
  if (!Number.isFinite(r)) return '-';
  return `${Math.abs(r) >= 0.1 || r === 0 ? r.toFixed(2) : r.toPrecision(2)}x`;
}

/**
 * The results as one markdown table: medians per manager, the floor, and svc/peer ratios
 * (below 1 = svc is smaller, i.e. faster or leaner).
 */
export function resultsTable(metrics: readonly Metric[]): string {
  const head = ['scenario', 'measure', 'unit', 'floor', 'svc', ...PEERS, 'svc/floor', ...PEERS.map((p) => `svc/${p}`), 'svc target'];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map((h) => (['scenario', 'measure', 'svc target'].includes(h) ? ' --- ' : ' ---: ')).join('|')}|`];
  for (const m of metrics) {
    const med = (name: ManagerName) => median(m.samples[name] ?? []);
    const floor = median(m.floor ?? []);
    const svc = med('svc');
    const cells = [
      m.scenario,
      m.what,
      m.unit,
      formatValue(floor),
      formatValue(svc),
      ...PEERS.map((p) => formatValue(med(p))),
      formatRatio(ratio(svc, floor)),
      ...PEERS.map((p) => formatRatio(ratio(svc, med(p)))),
      m.target ?? '',
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}
