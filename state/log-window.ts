/**
 * How much of one log line svc shows: the tail reads at most this many bytes from a file's end
 * (log-files/tail.ts), and clients join a long line's stream pieces up to this many characters
 * (state/log-pieces.ts), so that the stream and the tail show a long line alike.
 */
export const LOG_LINE_WINDOW = 16 * 1024 * 1024;
