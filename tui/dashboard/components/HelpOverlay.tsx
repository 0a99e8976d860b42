import { Box, Text } from 'ink';

/** Every key binding, in the order a user needs them (docs/tui.md has the same table). */
export const KEY_HELP: [string, string][] = [
  ['↑ ↓  Home End', 'select a program'],
  ['space / u', 'mark or unmark the row (actions apply to marked rows) / clear marks'],
  ['/', 'filter by name, group or status (Enter applies, Esc clears)'],
  ['o / O', 'next sort column / reverse the sort'],
  ['s', 'start'],
  ['r', 'restart'],
  ['R', 'reload: restart without downtime (health check needed; docs/reload.md)'],
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

function Entries({ items }: { items: [string, string][] }) {
  return (
    <Box flexDirection="column" flexGrow={1} flexBasis={0}>
      {items.map(([keys, what]) => (
        <Text key={keys} wrap="truncate">
          <Text color="cyan">{keys.padEnd(16)}</Text>
          {what}
        </Text>
      ))}
    </Box>
  );
}

/** Key bindings, shown in place of the panes; in two columns when the panes are short. */
export default function HelpOverlay({ height }: { height: number }) {
  const rows = Math.max(1, height - 1);
  const half = Math.ceil(KEY_HELP.length / 2);
  const [left, right] = rows >= KEY_HELP.length ? [KEY_HELP, []] : [KEY_HELP.slice(0, half), KEY_HELP.slice(half)];
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      <Text bold color="cyan">
        svc ui: keys (any key closes)
      </Text>
      <Box>
        <Entries items={left.slice(0, rows)} />
        {right.length ? <Entries items={right.slice(0, rows)} /> : null}
      </Box>
    </Box>
  );
}
