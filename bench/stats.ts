/** Median of the finite values; NaN when there are none. Does not modify its input. */
export function median(values: readonly number[]): number {
  const xs = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (xs.length === 0) return Number.NaN;
  const mid = xs.length >> 1;
  return xs.length % 2 === 1 ? xs[mid] : (xs[mid - 1] + xs[mid]) / 2;
}

/** Differences between consecutive values (sorted first): the gaps of a series of timestamps. */
export function gaps(values: readonly number[]): number[] {
  const xs = [...values].sort((a, b) => a - b);
  return xs.slice(1).map((v, i) => v - xs[i]);
}

/** svc / peer, or NaN when either side is missing or the peer is zero. */
export function ratio(svc: number, peer: number): number {
  if (!Number.isFinite(svc) || !Number.isFinite(peer) || peer === 0) return Number.NaN;
  return svc / peer;
}
