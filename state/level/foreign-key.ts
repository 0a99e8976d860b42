/** What foreignKey reads: a LevelDB (or sublevel) that can list its first key. */
interface Keyed {
  keys(options: { limit: number }): { all(): Promise<string[]> };
}

/**
 * The first key of a LevelDB that holds keys but none in `spaces` (its owner's sublevels), or
 * null. Such a folder is some other store (the event history where the state store should be, or
 * the other way round, another program's LevelDB): opening it as ours would find it empty and
 * write into it.
 */
export async function foreignKey(db: Keyed, spaces: readonly Keyed[]): Promise<string | null> {
  for (const space of spaces) if ((await space.keys({ limit: 1 }).all()).length > 0) return null;
  const [first] = await db.keys({ limit: 1 }).all();
  return first ?? null;
}
