import { Text } from 'ink';
import { SIGNALS, type PendingAction } from '../state/model.js';

export interface ConfirmPromptProps {
  mode: 'confirm' | 'signal';
  pending: PendingAction;
  signalIndex: number;
}

function verb(p: PendingAction): string {
  const { type, payload } = p.action;
  if (type === 'Stop') return payload?.force ? 'force stop (SIGKILL now)' : 'stop';
  if (type === 'Signal') return `send SIG${(payload?.signal ?? '').toUpperCase()} to`;
  return type.toLowerCase();
}

/** The question on the bottom line: y/N for destructive actions, or the signal picker. */
export default function ConfirmPrompt({ mode, pending, signalIndex }: ConfirmPromptProps) {
  const who = pending.names.length > 3 ? `${pending.names.slice(0, 3).join(', ')} and ${pending.names.length - 3} more` : pending.names.join(', ');
  if (mode === 'signal') {
    return (
      <Text wrap="truncate">
        <Text bold>{`signal for ${who}: `}</Text>
        {SIGNALS.map((s, i) => (
          <Text key={s} inverse={i === signalIndex}>{` ${i + 1} ${s} `}</Text>
        ))}
        <Text dimColor> ←/→ ↑/↓ Enter, Esc cancels</Text>
      </Text>
    );
  }
  return (
    <Text wrap="truncate" color="yellow" bold>
      {`${verb(pending)} ${who}? [y/N]`}
    </Text>
  );
}
