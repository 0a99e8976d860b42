/** How the screen is split; every pane gets a fixed height so refreshes never move the layout. */
export interface ScreenLayout {
  tableRows: number;
  paneRows: number;
  detailRows: number;
  eventRows: number;
  leftWidth: number;
  rightWidth: number;
}

/**
 * The fewest terminal rows the dashboard is drawn in. Below it the panes would not fit, and Ink
 * squeezes boxes so that lines are drawn over each other; a one-line notice is shown instead.
 */
export const MIN_ROWS = 9;

/**
 * status line, table header + rows, panes, bottom line; one row is left free because a frame as
 * tall as the terminal makes Ink clear the screen on every refresh (flicker). From MIN_ROWS up
 * the parts add up to exactly `rows - 1`; the events pane gets what the detail pane leaves (none
 * on the smallest terminals).
 */
export function screenLayout(columns: number, rows: number): ScreenLayout {
  const usable = Math.max(MIN_ROWS, rows) - 1;
  const tableRows = Math.max(3, Math.floor((usable - 3) * 0.45));
  const paneRows = Math.max(2, usable - 3 - tableRows);
  const detailRows = Math.max(1, Math.ceil(paneRows * 0.55));
  const leftWidth = Math.floor(columns / 2);
  return { tableRows, paneRows, detailRows, eventRows: paneRows - detailRows, leftWidth, rightWidth: Math.max(10, columns - leftWidth - 1) };
}
