import { Box, Text } from 'ink';
import type { LogView } from '../hooks/use-logs.js';
import { coloursWanted } from '../../client/colours.js';
import { terminalSafe } from '../../client/terminal-text.js';
import { clip } from './text.js';

export interface LogPaneProps {
  name: string | undefined;
  view: LogView;
  /** Lines scrolled up from the newest. */
  scroll: number;
  paused: boolean;
  height: number;
  width: number;
}

const MODE: Record<LogView['mode'], string> = { connecting: '(connecting)', live: '(live)', polling: '(polling)', closed: '(closed)' };

/** The selected program's output, newest at the bottom; stderr in red with an "err" prefix; its own colours kept, other control sequences not (tui/client/terminal-text.ts). */
export default function LogPane({ name, view, scroll, paused, height, width }: LogPaneProps) {
  const rows = Math.max(0, height - 1);
  // Scrolled past the oldest line kept, the oldest page stays in view.
  const end = Math.max(Math.min(rows, view.lines.length), view.lines.length - scroll);
  const shown = view.lines.slice(Math.max(0, end - rows), end);
  const waiting = view.pending ? `, ${view.pending} new` : '';
  // No program selected (none, or none matching the filter): nothing to connect to.
  const flags = [name === undefined ? '(no program selected)' : MODE[view.mode], view.error ?? '', paused ? `[paused${waiting}]` : '', scroll ? `[up ${scroll}${paused ? '' : waiting}]` : '']
    .filter(Boolean)
    .join(' ');
  return (
    <Box flexDirection="column" height={height} width={width} overflow="hidden">
      <Text bold wrap="truncate">
        logs {name ?? '-'} <Text color={paused ? 'yellow' : 'gray'}>{flags}</Text>
      </Text>
      {shown.map((l, i) => (
        <Text key={i} wrap="truncate" color={l.source === 'stderr' ? 'red' : undefined}>
          <Text dimColor>{l.source === 'stderr' ? 'err│' : 'out│'}</Text>
          {clip(terminalSafe(l.content, { colour: coloursWanted() }), width - 4)}
        </Text>
      ))}
    </Box>
  );
}
