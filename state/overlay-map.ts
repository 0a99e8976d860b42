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
    if (!this.changed.has(key)) return this.base.get(key);
    const local = this.changed.get(key);
    return local === REMOVED ? undefined : local;
  }

  has(key: K): boolean {
    return this.changed.has(key) ? this.changed.get(key) !== REMOVED : this.base.has(key);
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

  /** The keys set or deleted here since the overlay was made (a key set and deleted again, absent from the base, is not). */
  changedKeys(): IterableIterator<K> {
    return this.changed.keys();
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
      if (!this.changed.has(key)) yield [key, value];
      else if (this.changed.get(key) !== REMOVED) yield [key, this.changed.get(key) as V];
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
