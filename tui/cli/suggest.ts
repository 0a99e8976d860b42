import type { Command } from 'commander';

/**
 * The commands an unknown command may be corrected to: only those that read, so a typo never
 * leads a user (or a script that follows the hint) into a command that changes state.
 */
export const READ_ONLY_COMMANDS = ['list', 'ls', 'status', 'info', 'describe', 'show', 'logs', 'events', 'check', 'export', 'storage', 'audit', 'completion', 'ui', 'help'] as const;

/** Edit distance counting a swap of two neighbours as one edit (`lsit` is one from `list`). */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2][j - 2] + 1);
      d[i][j] = best;
    }
  }
  return d[a.length][b.length];
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
