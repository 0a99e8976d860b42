import { Box, Text } from 'ink';

/** Every key binding, in the order a user needs them (docs/tui.md has the same table). */
export const KEY_HELP: [string, string][] = [
  ['↑ ↓  Home End', 'select a program'],
  ['space / u', 'mark or unmark the row (actions apply to marked rows) / clear marks'],
  ['/', 'filter by name or status (Enter applies, Esc clears)'],
  ['o / O', 'next sort column / reverse the sort'],
  ['s', 'start'],
  ['r', 'restart'],
  ['x / X', 'stop / force stop (asks first)'],
  ['k', 'send a signal (pick one; kill asks first)'],
  ['d', 'remove (asks first)'],
  ['PgUp PgDn', 'scroll the log pane'],
  ['p', 'pause or resume the log pane'],
  ['e', 'cycle the event type filter'],
  ['Esc', 'clear the filter and the message line'],
  ['?', 'this help (any key closes it)'],
  ['q  Ctrl-C', 'quit'],
];

/** Key bindings, shown in place of the panes. */
export default function HelpOverlay({ height }: { height: number }) {
  return (
    <Box flexDirection="column" height={height} borderStyle="round" paddingX={1} overflow="hidden">
      <Text bold>svc ui: keys</Text>
      {KEY_HELP.map(([keys, what]) => (
        <Text key={keys} wrap="truncate">
          <Text color="cyan">{keys.padEnd(16)}</Text>
          {what}
        </Text>
      ))}
    </Box>
  );
}
