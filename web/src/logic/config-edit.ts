/**
 * The configuration editor sends every field of its text, so a change svcd took while the text
 * was being edited (another client, a stack apply, a Git sync) would be undone without a word.
 * These are the fields changed since the editor was opened: none means saving is safe.
 */
export function changedSince(opened: Readonly<Record<string, unknown>>, now: Readonly<Record<string, unknown>>): string[] {
  const keys = new Set([...Object.keys(opened), ...Object.keys(now)]);
  return [...keys].filter((k) => JSON.stringify(opened[k]) !== JSON.stringify(now[k])).sort();
}
