/** Keyboard commands of the dashboard; the help dialog lists the same table. */
export type Command =
  | { kind: 'move'; by: number }
  | { kind: 'edge'; to: 'first' | 'last' }
  | { kind: 'mark' }
  | { kind: 'markAll' }
  | { kind: 'clear' }
  | { kind: 'open' }
  | { kind: 'filter' }
  | { kind: 'action'; action: 'Start' | 'Stop' | 'Restart' | 'Reload' | 'Signal' | 'Remove' }
  | { kind: 'add' }
  | { kind: 'page'; to: 'programs' | 'events' | 'stack' | 'system' }
  | { kind: 'help' };

export const KEY_HELP: [string, string][] = [
  ['↑ ↓ / j k', 'move between programs'],
  ['PgUp PgDn Home End', 'move by a page, to the first or last'],
  ['Space', 'mark or unmark the program'],
  ['a', 'mark every program shown'],
  ['Esc', 'clear the marks (or close a dialog)'],
  ['Enter', 'open the program'],
  ['/', 'filter'],
  ['s x r R', 'start, stop, restart, reload (marked, or the current one)'],
  ['!', 'send a signal'],
  ['Delete', 'remove'],
  ['n', 'add a program'],
  ['1 2 3 4', 'programs, events, stack, system'],
  ['?', 'this help'],
];

/** Page-wide keys (any page): page switches and help. */
export function globalCommand(key: string): Command | null {
  switch (key) {
    case '1':
      return { kind: 'page', to: 'programs' };
    case '2':
      return { kind: 'page', to: 'events' };
    case '3':
      return { kind: 'page', to: 'stack' };
    case '4':
      return { kind: 'page', to: 'system' };
    case '?':
      return { kind: 'help' };
    default:
      return null;
  }
}

/** The program table's keys; `page` is how many rows one screen shows. */
export function tableCommand(key: string, page: number): Command | null {
  switch (key) {
    case 'ArrowDown':
    case 'j':
      return { kind: 'move', by: 1 };
    case 'ArrowUp':
    case 'k':
      return { kind: 'move', by: -1 };
    case 'PageDown':
      return { kind: 'move', by: Math.max(1, page) };
    case 'PageUp':
      return { kind: 'move', by: -Math.max(1, page) };
    case 'Home':
      return { kind: 'edge', to: 'first' };
    case 'End':
      return { kind: 'edge', to: 'last' };
    case ' ':
      return { kind: 'mark' };
    case 'a':
      return { kind: 'markAll' };
    case 'Escape':
      return { kind: 'clear' };
    case 'Enter':
      return { kind: 'open' };
    case '/':
      return { kind: 'filter' };
    case 's':
      return { kind: 'action', action: 'Start' };
    case 'x':
      return { kind: 'action', action: 'Stop' };
    case 'r':
      return { kind: 'action', action: 'Restart' };
    case 'R':
      return { kind: 'action', action: 'Reload' };
    case '!':
      return { kind: 'action', action: 'Signal' };
    case 'Delete':
      return { kind: 'action', action: 'Remove' };
    case 'n':
      return { kind: 'add' };
    default:
      return null;
  }
}

/** Keys typed into a text box belong to the box, never to the dashboard. */
export function isTyping(target: { tagName?: string; isContentEditable?: boolean; type?: string } | null): boolean {
  if (!target?.tagName) return false;
  const tag = target.tagName.toUpperCase();
  if (tag === 'TEXTAREA' || tag === 'SELECT' || target.isContentEditable) return true;
  return tag === 'INPUT' && !['checkbox', 'radio', 'button', 'submit'].includes((target.type ?? 'text').toLowerCase());
}

/**
 * Enter and Space on a control inside the table (a sort button, a mark box, a name link) belong
 * to that control, as anywhere else on the page; the table commands take them only on the rows.
 */
export function controlOwnsKey(key: string, target: { tagName?: string } | null): boolean {
  const tag = target?.tagName?.toUpperCase();
  if (key === 'Enter') return tag === 'A' || tag === 'BUTTON';
  if (key === ' ') return tag === 'BUTTON' || tag === 'INPUT';
  return false;
}

/** The new cursor row after a move, clamped to the list. */
export function moveCursor(index: number, cmd: Command, total: number): number {
  if (total <= 0) return -1;
  if (cmd.kind === 'edge') return cmd.to === 'first' ? 0 : total - 1;
  if (cmd.kind === 'move') return Math.min(total - 1, Math.max(0, (index < 0 ? 0 : index) + cmd.by));
  return index;
}
