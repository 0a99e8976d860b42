/** Fits text into exactly `width` cells: cut with an ellipsis or padded with spaces. */
export function fit(text: string, width: number): string {
  if (width <= 0) return '';
  if (text.length > width) return width === 1 ? '…' : `${text.slice(0, width - 1)}…`;
  return text.padEnd(width);
}

/** HH:MM:SS (UTC) of a Unix-ms time. */
export function clock(ms: number): string {
  return new Date(ms).toISOString().slice(11, 19);
}

/** MM-DD HH:MM (UTC) of a Unix-ms time, or "-". */
export function shortTime(ms: number | null | undefined): string {
  if (!ms) return '-';
  return new Date(ms).toISOString().slice(5, 16).replace('T', ' ');
}
