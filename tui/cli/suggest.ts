import type { Command } from 'commander';

/**
 * The commands an unknown command may be corrected to: only those that read, so a typo never
 * leads a user (or a script that follows the hint) into a command that changes state.
 */
export const READ_ONLY_COMMANDS = ['list', 'ls', 'status', 'info', 'describe', 'show', 'logs', 'events', 'check', 'export', 'storage', 'audit', 'completion', 'ui', 'help'] as const;

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length];
}

/** The nearest read-only command to `word`, or null when none is close (at most 40 % edited). */
export function suggestReadOnly(word: string, candidates: readonly string[] = READ_ONLY_COMMANDS): string | null {
  const w = word.toLowerCase();
  let best: { name: string; d: number } | null = null;
  for (const name of candidates) {
    const d = distance(w, name);
    if (!best || d < best.d) best = { name, d };
  }
  if (!best) return null;
  return best.d <= Math.max(1, Math.floor(Math.max(w.length, best.name.length) * 0.4)) ? best.name : null;
}

/** Commander's own suggestions may name any command (`restat` -> `restart`): turn them off everywhere. */
export function disableCommanderSuggestions(cmd: Command): void {
  cmd.showSuggestionAfterError(false);
  for (const sub of cmd.commands) disableCommanderSuggestions(sub);
}
