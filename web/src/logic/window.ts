/** Which rows of a long list to put in the DOM: those in view plus `overscan` on each side. */
export interface WindowRange {
  /** First rendered row. */
  start: number;
  /** One past the last rendered row. */
  end: number;
  /** Height of the blank space above and below the rendered rows, in pixels. */
  padTop: number;
  padBottom: number;
}

export function windowRange(scrollTop: number, viewport: number, rowHeight: number, total: number, overscan = 8): WindowRange {
  if (total <= 0 || rowHeight <= 0) return { start: 0, end: 0, padTop: 0, padBottom: 0 };
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const inView = Math.ceil(Math.max(viewport, rowHeight) / rowHeight) + 1;
  const start = Math.max(0, Math.min(first - overscan, total - 1));
  const end = Math.min(total, first + inView + overscan);
  return { start, end: Math.max(start, end), padTop: start * rowHeight, padBottom: Math.max(0, total - Math.max(start, end)) * rowHeight };
}

/**
 * The scroll offset that brings row `index` into view, moving as little as possible; the current
 * offset when it is already fully visible.
 */
export function scrollToRow(scrollTop: number, viewport: number, rowHeight: number, index: number): number {
  const top = index * rowHeight;
  if (top < scrollTop) return top;
  if (top + rowHeight > scrollTop + viewport) return Math.max(0, top + rowHeight - viewport);
  return scrollTop;
}
