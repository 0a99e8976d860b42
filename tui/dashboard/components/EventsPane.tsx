import { Box, Text } from 'ink';
import { memo } from 'react';
import type { EventRecord } from '../../../api/wire.js';
import { clock, fit } from './text.js';
import { terminalSafe } from '../../client/terminal-text.js';

export interface EventsPaneProps {
  events: EventRecord[];
  type: string | null;
  height: number;
  width: number;
}

function color(event: string): string | undefined {
  if (event === 'process_fatal' || event === 'health_restart') return 'red';
  if (event === 'process_backoff' || event === 'process_unhealthy') return 'yellow';
  if (event === 'process_started' || event === 'process_recovered') return 'green';
  if (event === 'process_exit' || event === 'start_cancelled') return 'gray';
  return undefined;
}

/** The event history, newest first, with the type filter in the title. */
function EventsPane({ events, type, height, width }: EventsPaneProps) {
  return (
    <Box flexDirection="column" height={height} width={width} overflow="hidden">
      <Text bold wrap="truncate">
        events <Text color="gray">{`[type: ${type ?? 'all'}] (e cycles)`}</Text>
      </Text>
      {events.slice(0, Math.max(0, height - 1)).map((e) => (
        <Text key={e.id} wrap="truncate">
          <Text dimColor>{clock(e.ts_ms)}</Text> {fit(e.program_name ?? 'svcd', 14)} <Text color={color(e.event)}>{fit(e.event, 17)}</Text> {terminalSafe(e.msg, { colour: false })}
        </Text>
      ))}
    </Box>
  );
}

export default memo(EventsPane);
