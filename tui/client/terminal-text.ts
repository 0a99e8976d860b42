/* eslint-disable no-control-regex -- this file is about control characters */

/**
 * Text that programs wrote (log lines, command lines, probe and exit messages) made safe to draw
 * inside a pane of `svc ui`, or on the terminal `svc logs` prints to. Ink keeps OSC sequences and every C0 control, so a carriage return (a progress
 * bar) sent the cursor back to the first column of the screen and overwrote the next pane, a tab
 * ran past the pane's width, a newline in an argument pushed the lines below it, and an OSC could
 * retitle the terminal or write to the clipboard. The rules:
 * - colour and style (SGR, `ESC [ … m`) are kept when `colour` is set, else dropped; every other
 *   escape sequence (cursor moves, clearing, OSC, DCS, …) is dropped;
 * - a carriage return shows what a terminal would show last: the text after the last one (a
 *   `\r` at the end, as in CRLF output, is dropped);
 * - tabs become spaces to the next multiple of 8 columns;
 * - a newline is shown as `↵` (the line stays one line); other control characters are dropped.
 */
export function terminalSafe(text: string, opts: { colour: boolean }): string {
  if (!/[\x00-\x1f\x7f-\x9f]/.test(text)) return text;
  const withoutSequences = text.replace(SEQUENCE, (seq) => (opts.colour && SGR.test(seq) ? seq.replace(/^\x9b/, '\x1b[') : ''));
  const trimmed = withoutSequences.replace(/\r+$/, '');
  const lastLine = trimmed.slice(trimmed.lastIndexOf('\r') + 1);
  return expand(lastLine);
}

/** CSI (7- and 8-bit), string sequences up to their terminator (or the end), other escapes, a lone ESC. */
const SEQUENCE = /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?|\x1b[ -/]*[0-~]?/g;
const SGR = /^(?:\x1b\[|\x9b)[0-9:;]*m$/;

function expand(text: string): string {
  let out = '';
  let column = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] ?? '';
    if (ch === '\x1b') {
      // only SGR sequences are left: copied, no width
      const end = text.indexOf('m', i);
      out += text.slice(i, end + 1);
      i = end;
    } else if (ch === '\t') {
      const to = (Math.floor(column / 8) + 1) * 8;
      out += ' '.repeat(to - column);
      column = to;
    } else if (ch === '\n') {
      out += '↵';
      column++;
    } else if (!/[\x00-\x1f\x7f-\x9f]/.test(ch)) {
      out += ch;
      column++;
    }
  }
  return out;
}
