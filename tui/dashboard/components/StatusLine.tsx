import { Text } from 'ink';
import { memo } from 'react';
import type { WatchProgram } from '../../../api/wire.js';
import type { DaemonInfo } from '../hooks/use-watch.js';
import type { Connection } from '../state/model.js';
import { statusColor } from '../state/status.js';
import { hostFigures } from './text.js';

export interface StatusLineProps {
  info: DaemonInfo;
  connection: Connection;
  programs: readonly WatchProgram[];
  filter: string;
  marked: number;
}

/** Counts by status, in a stable order. */
export function countByStatus(programs: readonly WatchProgram[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const p of programs) counts.set(p.status, (counts.get(p.status) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => a[0].localeCompare(b[0]));
}

/** The top line: daemon, machine load, programs by status; or the disconnection banner. */
function StatusLine({ info, connection, programs, filter, marked }: StatusLineProps) {
  return (
    <Text wrap="truncate">
      <Text bold>svc {info.version ?? '-'}</Text>
      {connection.ok ? (
        <Text color="green"> ● </Text>
      ) : (
        <Text color="red" bold>
          {` disconnected, retrying in ${Math.ceil((connection.retryMs ?? 1000) / 1000)}s: ${connection.error ?? ''} `}
        </Text>
      )}
      {`${hostFigures(info.stats)}  ${programs.length} program${programs.length === 1 ? '' : 's'}`}
      {countByStatus(programs).map(([status, n]) => (
        <Text key={status} color={statusColor(status)}>{`  ${n} ${status}`}</Text>
      ))}
      {filter ? <Text color="cyan">{`  filter: ${filter}`}</Text> : null}
      {marked ? <Text color="magenta">{`  marked: ${marked}`}</Text> : null}
    </Text>
  );
}

export default memo(StatusLine);
