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
 * status line, table header + rows, panes, bottom line; one row is left free because a frame as
 * tall as the terminal makes Ink clear the screen on every refresh (flicker).
 */
export function screenLayout(columns: number, rows: number): ScreenLayout {
  const usable = Math.max(8, rows - 1);
  const tableRows = Math.max(3, Math.floor((usable - 3) * 0.45));
  const paneRows = Math.max(2, usable - 3 - tableRows);
  const detailRows = Math.max(1, Math.ceil(paneRows * 0.55));
  const leftWidth = Math.floor(columns / 2);
  return { tableRows, paneRows, detailRows, eventRows: Math.max(1, paneRows - detailRows), leftWidth, rightWidth: Math.max(10, columns - leftWidth - 1) };
}
