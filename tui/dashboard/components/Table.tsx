import { Box, Text } from 'ink';
import { statusColor } from '../state/status.js';
import type { SortOrder } from '../state/sort.js';
import type { ProgramDetail, ProgramItem } from '../types.js';
import { columns, type Column } from './columns.js';
import { fit } from './text.js';

export interface TableProps {
  /** Only the rows in the window (already sorted and filtered). */
  rows: ProgramItem[];
  /** Rows the table area holds; short tables are padded so the layout does not jump. */
  height: number;
  width: number;
  selectedId: string | null;
  marks: ReadonlySet<string>;
  details: ReadonlyMap<string, ProgramDetail>;
  sort: SortOrder;
  now: number;
  /** "12-30 of 500" */
  position: string;
}

const SORT_TITLE: Record<string, string> = { name: 'NAME', status: 'STATUS', pid: 'PID', uptime: 'UPTIME', restarts: 'RST', cpu: 'CPU%', mem: 'MEM' };

function cell(c: Column, text: string): string {
  return c.align === 'right' ? fit(text, c.width).trimEnd().padStart(c.width) : fit(text, c.width);
}

/** The program table: a window of rows, status coloured, selection inverted, marks starred. */
export default function Table({ rows, height, width, selectedId, marks, details, sort, now, position }: TableProps) {
  const cols = columns(width);
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
      {rows.map((p) => {
        const d = details.get(p.id);
        const selected = p.id === selectedId;
        const texts = cols.map((c) => cell(c, c.cell(p, d, now)));
        const [name, status, ...rest] = texts;
        return (
          <Text key={p.id} inverse={selected} wrap="truncate">
            <Text color="magenta">{marks.has(p.id) ? '*' : ' '}</Text>
            {selected ? '>' : ' '}
            {name} <Text color={statusColor(p.status)}>{status}</Text> {rest.join(' ')}
          </Text>
        );
      })}
      {rows.length === 0 ? <Text dimColor>  no programs</Text> : null}
    </Box>
  );
}
