/** The set of marked program ids: toggled one by one, by range (shift-click), or all shown. */

export function toggle(selected: ReadonlySet<string>, id: string): Set<string> {
  const next = new Set(selected);
  if (next.has(id)) next.delete(id);
  else next.add(id);
  return next;
}

/** Marks every id between `anchor` and `id` (inclusive) in display order. */
export function selectRange(selected: ReadonlySet<string>, order: readonly string[], anchor: string | null, id: string): Set<string> {
  const a = anchor === null ? -1 : order.indexOf(anchor);
  const b = order.indexOf(id);
  if (a < 0 || b < 0) return toggle(selected, id);
  const next = new Set(selected);
  for (let i = Math.min(a, b); i <= Math.max(a, b); i++) next.add(order[i]);
  return next;
}

/** Header checkbox: when every shown row is marked, unmark them; otherwise mark them all. */
export function toggleAll(selected: ReadonlySet<string>, shown: readonly string[]): Set<string> {
  const all = shown.length > 0 && shown.every((id) => selected.has(id));
  const next = new Set(selected);
  for (const id of shown) {
    if (all) next.delete(id);
    else next.add(id);
  }
  return next;
}

/** Drops ids of programs that no longer exist (removed elsewhere); the same set when none did. */
export function prune(selected: ReadonlySet<string>, existing: ReadonlySet<string>): ReadonlySet<string> {
  for (const id of selected) if (!existing.has(id)) return new Set([...selected].filter((s) => existing.has(s)));
  return selected;
}
