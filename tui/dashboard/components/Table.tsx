import { Box, Text } from 'ink';
import { memo, useMemo } from 'react';
import type { WatchProgram } from '../../../api/wire.js';
import { isAlive, statusColor } from '../state/status.js';
import type { SortOrder } from '../state/sort.js';
import { columns, type Column } from './columns.js';
import { fit } from './text.js';

export interface TableProps {
  /** Only the rows in the window (already sorted and filtered). */
  rows: WatchProgram[];
  /** Rows the table area holds; short tables are padded so the layout does not jump. */
  height: number;
  width: number;
  selectedId: string | null;
  marks: ReadonlySet<string>;
  sort: SortOrder;
  now: number;
  /** "12-30 of 500" */
  position: string;
  /** What an empty table says: why there is no row (no programs, none matching, not connected yet). */
  empty: string;
}

const SORT_TITLE: Record<string, string> = { name: 'NAME', status: 'STATUS', pid: 'PID', uptime: 'UPTIME', restarts: 'RST', cpu: 'CPU%', mem: 'MEM' };

function cell(c: Column, text: string): string {
  return c.align === 'right' ? fit(text, c.width).trimEnd().padStart(c.width) : fit(text, c.width);
}

interface RowProps {
  p: WatchProgram;
  cols: Column[];
  selected: boolean;
  marked: boolean;
  now: number;
}

/** One program; redrawn only when its entry, its marks or (for uptime) the time change. */
const Row = memo(function Row({ p, cols, selected, marked, now }: RowProps) {
  const [name, status, ...rest] = cols.map((c) => cell(c, c.cell(p, now)));
  return (
    <Text inverse={selected} wrap="truncate">
      <Text color="magenta">{marked ? '*' : ' '}</Text>
      {selected ? '>' : ' '}
      {name} <Text color={statusColor(p.status)}>{status}</Text> {rest.join(' ').trimEnd()}
    </Text>
  );
});

/** The program table: a window of rows, status coloured, selection inverted, marks starred. */
function Table({ rows, height, width, selectedId, marks, sort, now, position, empty }: TableProps) {
  const cols = useMemo(() => columns(width), [width]);
  const header = cols
    .map((c) => {
      const arrow = SORT_TITLE[sort.column] === c.title ? (sort.desc ? '▼' : '▲') : '';
      return cell(c, `${c.title}${arrow}`);
    })
    .join(' ');
  return (
    <Box flexDirection="column" height={height + 1}>
      <Text bold wrap="truncate">
        {`  ${header}`.slice(0, Math.max(0, width - position.length - 1))}
        <Text dimColor>{` ${position}`}</Text>
      </Text>
      {rows.map((p) => (
        <Row key={p.id} p={p} cols={cols} selected={p.id === selectedId} marked={marks.has(p.id)} now={p.started_at && isAlive(p.status) ? now : 0} />
      ))}
      {rows.length === 0 ? <Text dimColor>{`  ${empty}`}</Text> : null}
    </Box>
  );
}

export default memo(Table);
