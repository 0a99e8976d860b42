/**
 * A bounded FIFO that never grows past its capacity: `push` refuses (returns false) when full so
 * the caller can count a drop instead of blocking. Backed by a ring buffer, O(1) per operation.
 */
export class BoundedQueue<T> {
  private readonly slots: (T | undefined)[];
  private head = 0;
  private length = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new TypeError(`capacity must be a positive integer, got ${capacity}`);
    this.slots = new Array<T | undefined>(capacity);
  }

  get size(): number {
    return this.length;
  }

  push(item: T): boolean {
    if (this.length === this.capacity) return false;
    this.slots[(this.head + this.length) % this.capacity] = item;
    this.length++;
    return true;
  }

  /** Removes and returns up to `max` items, oldest first. */
  take(max: number): T[] {
    const n = Math.min(max, this.length);
    const out = new Array<T>(n);
    for (let i = 0; i < n; i++) {
      out[i] = this.slots[this.head] as T;
      this.slots[this.head] = undefined;
      this.head = (this.head + 1) % this.capacity;
    }
    this.length -= n;
    return out;
  }
}
