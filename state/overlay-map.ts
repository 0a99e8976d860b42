const REMOVED = Symbol('removed');

/**
 * A map read through a few local changes and then a base map that it never copies or changes:
 * a group commit's view of the programs (write-view.ts) costs O(its writes), not O(programs).
 * Iteration (rare: the whole-set check) lists the base's entries as changed, then the new ones.
 */
export class OverlayMap<K, V> implements ReadonlyMap<K, V> {
  private readonly changed = new Map<K, V | typeof REMOVED>();

  constructor(private readonly base: ReadonlyMap<K, V>) {}

  get(key: K): V | undefined {
    const local = this.changed.get(key);
    if (local === REMOVED) return undefined;
    return local !== undefined || this.changed.has(key) ? local : this.base.get(key);
  }

  has(key: K): boolean {
    const local = this.changed.get(key);
    return local === REMOVED ? false : this.changed.has(key) || this.base.has(key);
  }

  set(key: K, value: V): this {
    this.changed.set(key, value);
    return this;
  }

  delete(key: K): boolean {
    const had = this.has(key);
    if (this.base.has(key)) this.changed.set(key, REMOVED);
    else this.changed.delete(key);
    return had;
  }

  get size(): number {
    let size = this.base.size;
    for (const [key, value] of this.changed) {
      const inBase = this.base.has(key);
      if (value === REMOVED) size -= inBase ? 1 : 0;
      else size += inBase ? 0 : 1;
    }
    return size;
  }

  *entries(): MapIterator<[K, V]> {
    for (const [key, value] of this.base) {
      const local = this.changed.get(key);
      if (local === REMOVED) continue;
      yield [key, this.changed.has(key) ? (local as V) : value];
    }
    for (const [key, value] of this.changed) if (value !== REMOVED && !this.base.has(key)) yield [key, value];
  }

  *keys(): MapIterator<K> {
    for (const [key] of this.entries()) yield key;
  }

  *values(): MapIterator<V> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }

  forEach(fn: (value: V, key: K, map: ReadonlyMap<K, V>) => void): void {
    for (const [key, value] of this.entries()) fn(value, key, this);
  }
}
