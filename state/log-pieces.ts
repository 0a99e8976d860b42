import { LOG_LINE_WINDOW } from './log-window.js';

/**
 * The longest line a client puts back together from the stream's pieces, in characters: the
 * tail's window, so the stream shows a long line as the tail does. A line that never ends
 * (output without newlines) is shown in pieces of this size.
 */
export const LONG_LINE_MAX_CHARS = LOG_LINE_WINDOW;

interface Piece {
  source: 'stdout' | 'stderr';
  content: string;
  continues?: boolean;
}

/**
 * Joins the pieces of a long line of `WS /ws` (each but the last marked `continues`; svcd cuts
 * lines at 64 KiB) back into the line the log file holds, per source, so that clients show one
 * line where `GET /logs` shows one, and match the two (`svc logs -f`). Pure: one per connection
 * (a reconnect starts afresh, its tail covering what was cut off).
 */
export class LogPieces {
  private readonly pending = { stdout: '', stderr: '' };

  constructor(private readonly maxChars = LONG_LINE_MAX_CHARS) {}

  /** The whole line once its last piece came (without `continues`), else null while it is kept. */
  push<T extends Piece>(piece: T): Omit<T, 'continues'> | null {
    const content = this.pending[piece.source] + piece.content;
    if (piece.continues && content.length < this.maxChars) {
      this.pending[piece.source] = content;
      return null;
    }
    this.pending[piece.source] = '';
    const { continues: _continues, ...line } = piece;
    return { ...line, content };
  }
}
