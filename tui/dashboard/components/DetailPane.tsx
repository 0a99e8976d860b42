import { Box, Text } from 'ink';
import { statusColor } from '../state/status.js';
import { memo } from 'react';
import type { ProgramDetail, WatchProgram } from '../../../api/wire.js';
import { PROGRAM_DEFAULTS } from '../../../state/program.js';
import { clock } from './text.js';
import { terminalSafe } from '../../client/terminal-text.js';
import { otaSummary } from '../../client/ota-format.js';

const OTA_COLORS: Record<string, string> = { applied: 'green', retrying: 'yellow', failed: 'red', rolled_back: 'red' };

export interface DetailPaneProps {
  program: WatchProgram | undefined;
  detail: ProgramDetail | undefined;
  height: number;
  width: number;
}

function lastExitLine(d: ProgramDetail): string {
  const e = d.state.last_exit;
  if (!e) return 'last exit: -';
  const how = e.signal !== null ? `signal ${e.signal}` : `code ${e.exit_code ?? '?'}`;
  return `last exit: ${how} (${e.reason}) at ${clock(e.at)} after ${(e.duration_ms / 1000).toFixed(1)}s: ${e.msg}`;
}

/** The selected program: configuration summary, last exit and recent health probes. */
function DetailPane({ program, detail, height, width }: DetailPaneProps) {
  const line = (text: string, key: string, color?: string) => (
    <Text key={key} wrap="truncate" color={color}>
      {terminalSafe(text, { colour: false })}
    </Text>
  );
  if (!program) return <Box height={height} width={width} />;
  const c = detail?.config;
  const s = detail?.state;
  const lines = [
    <Text key="title" bold wrap="truncate">
      {program.name} <Text color={statusColor(program.status)}>{program.status}</Text>
      <Text dimColor>{` ${program.id}`}</Text>
    </Text>,
  ];
  if (c && s) {
    lines.push(line(`command: ${[c.command, ...(c.args ?? [])].join(' ')}`, 'cmd'));
    // Stored configs hold what was written; an omitted field is its default, not "none".
    lines.push(line(`cwd: ${c.cwd ?? '-'}  autorestart: ${c.autorestart ?? PROGRAM_DEFAULTS.autorestart}  retry_limit: ${c.retry_limit ?? 'unlimited'}`, 'cwd'));
    lines.push(line(`depends_on: ${c.depends_on?.length ? c.depends_on.join(', ') : '-'}  health_check: ${c.health_check?.type ?? '-'}${c.cron ? `  cron: ${c.cron}` : ''}`, 'deps'));
    if (s.detail) lines.push(line(`detail: ${s.detail}`, 'detail', 'yellow'));
    if (s.next_retry_at) lines.push(line(`next retry at ${clock(s.next_retry_at)} (retry ${s.retries})`, 'retry', 'yellow'));
    lines.push(line(lastExitLine(detail), 'exit', s.last_exit && s.last_exit.reason === 'crash' ? 'red' : undefined));
    if (s.ota) {
      lines.push(line(`ota: ${otaSummary(s.ota)}`, 'ota', s.ota.phase === 'idle' ? undefined : 'yellow'));
      if (s.ota.last) lines.push(line(`ota last: ${s.ota.last.result} at ${clock(s.ota.last.at)}: ${s.ota.last.reason}`, 'ota-last', OTA_COLORS[s.ota.last.result]));
    }
    const h = s.health;
    if (h) {
      lines.push(line(`health: ${h.healthy === null ? 'pending' : h.healthy ? 'healthy' : 'unhealthy'} (${h.successes} ok, ${h.failures} failed in a row)`, 'health'));
      for (const [i, r] of [...h.recent].reverse().slice(0, Math.max(0, height - lines.length)).entries()) {
        lines.push(line(`  ${r.ok ? '✓' : '✗'} ${clock(r.at)} ${r.latency_ms}ms ${r.message}`, `probe${i}`, r.ok ? 'green' : 'red'));
      }
    }
  } else {
    lines.push(line('loading details…', 'loading', 'gray'));
  }
  return (
    <Box flexDirection="column" height={height} width={width} overflow="hidden">
      {lines.slice(0, height)}
    </Box>
  );
}

export default memo(DetailPane);
