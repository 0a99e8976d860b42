import { Text } from 'ink';
import type { UiState } from '../state/model.js';
import ConfirmPrompt from './ConfirmPrompt.js';

/** The last line: the prompt of the current mode, else the message, else a short key hint. */
export default function BottomLine({ state }: { state: UiState }) {
  if ((state.mode === 'confirm' || state.mode === 'signal') && state.pending) {
    return <ConfirmPrompt mode={state.mode} pending={state.pending} signalIndex={state.signalIndex} />;
  }
  if (state.mode === 'filter') {
    return (
      <Text wrap="truncate">
        <Text color="cyan">/</Text>
        {state.draft}
        <Text inverse> </Text>
        <Text dimColor> Enter applies, Esc clears</Text>
      </Text>
    );
  }
  if (state.message) {
    return (
      <Text wrap="truncate" color={state.message.kind === 'error' ? 'red' : 'green'}>
        {state.message.text}
      </Text>
    );
  }
  return (
    <Text wrap="truncate" dimColor>
      ? help  / filter  o sort  space mark  s start  x stop  r restart  k signal  d remove  p pause logs  q quit
    </Text>
  );
}
