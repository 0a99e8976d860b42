/** An SVG line chart of a series over a fixed time window: the path and its scale. */
export interface ChartGeometry {
  /** `M x y L x y ...`; empty without points. */
  line: string;
  /** The same line closed to the baseline, for the fill. */
  area: string;
  /** Top of the value axis (a "nice" number at least the maximum). */
  max: number;
}

/** The smallest of 1, 2, 2.5, 5 times a power of ten that is at least `n` (and at least `floor`). */
export function niceMax(n: number, floor: number): number {
  const v = Math.max(n, floor);
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}

export function chartGeometry(points: readonly { at: number; value: number }[], opts: { width: number; height: number; from: number; to: number; floor: number }): ChartGeometry {
  const { width, height, from, to } = opts;
  const max = niceMax(points.reduce((m, p) => Math.max(m, p.value), 0), opts.floor);
  if (points.length === 0 || to <= from) return { line: '', area: '', max };
  const x = (t: number) => ((Math.min(Math.max(t, from), to) - from) / (to - from)) * width;
  const y = (v: number) => height - (Math.max(0, v) / max) * height;
  const coords = points.map((p) => `${x(p.at).toFixed(1)} ${y(p.value).toFixed(1)}`);
  const line = `M ${coords.join(' L ')}`;
  const first = x((points[0] as { at: number }).at).toFixed(1);
  const last = x((points[points.length - 1] as { at: number }).at).toFixed(1);
  return { line, area: `${line} L ${last} ${height} L ${first} ${height} Z`, max };
}
