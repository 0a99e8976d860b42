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

  /**
   * Puts items taken earlier back at the front, in order (a batch whose write must be retried).
   * When they do not all fit, the oldest are left out. Returns how many were put back.
   */
  pushFront(items: T[]): number {
    const n = Math.min(items.length, this.capacity - this.length);
    for (let i = items.length - 1; i >= items.length - n; i--) {
      this.head = (this.head - 1 + this.capacity) % this.capacity;
      this.slots[this.head] = items[i];
      this.length++;
    }
    return n;
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
