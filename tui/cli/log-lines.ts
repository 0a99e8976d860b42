import type { LogLine } from '../../api/wire.js';
import { terminalSafe } from '../client/terminal-text.js';

export interface LinePrefix {
  /** Program name, when several programs share the output. */
  name?: string;
  /** Show `out |`/`err |` (both sources). */
  source: boolean;
  timestamps: boolean;
  /**
   * Printing to a terminal: the content is made safe to show (terminal-text.ts), keeping the
   * program's colours when `colour`. A program's escape sequences could otherwise retitle the
   * terminal, write to its clipboard or move the cursor over earlier lines. Absent: the bytes as
   * written (into a pipe or a file).
   */
  terminal?: { colour: boolean };
}

/**
 * One log line as `svc logs` prints it: `[time] [name |] [out|err |] content`. The time is when
 * svcd read the line (streamed lines); lines read back from the files carry none and show `-`,
 * padded so the columns stay aligned.
 */
export function formatLogLine(line: LogLine, p: LinePrefix): string {
  const parts: string[] = [];
  if (p.timestamps) parts.push(line.ts ? new Date(line.ts * 1000).toISOString() : '-'.padEnd(24)); // ts: Unix seconds
  if (p.name !== undefined) parts.push(`${p.name} |`);
  if (p.source) parts.push(`${line.source === 'stderr' ? 'err' : 'out'} |`);
  parts.push(p.terminal ? terminalSafe(line.content, p.terminal) : line.content);
  return parts.join(' ');
}
