/** One file's growth: from `size` at `at` to `last`, its size when last seen growing (`lastAt`). */
interface Growth {
  size: number;
  at: number;
  last: number;
  lastAt: number;
}

/**
 * How fast each log file grows, for LogRotator: measured from the file's last rotation, from its
 * birth when first seen (a new program's file), or from the end of an idle spell, so that one
 * pass can tell how soon the fastest file reaches the size limit.
 */
export class GrowthMeter {
  private readonly files = new Map<string, Growth>();

  constructor(private readonly limitBytes: number) {}

  /**
   * Records a file's size seen now (`rotating`: it is over the limit and about to be emptied) and
   * returns in how many ms it reaches the limit at the pace measured, Infinity when it does not grow.
   */
  observe(file: string, size: number, bornAt: number, now: number, rotating: boolean): number {
    const born = bornAt > 0 && bornAt < now;
    const growth = this.files.get(file) ?? { size: born ? 0 : size, at: born ? bornAt : now, last: size, lastAt: now };
    let dueInMs = Infinity;
    if (size >= growth.size && now > growth.at) {
      const bytesPerMs = (size - growth.size) / (now - growth.at);
      if (bytesPerMs > 0) dueInMs = (this.limitBytes - (rotating ? 0 : size)) / bytesPerMs;
    }
    if (rotating || size < growth.size) {
      // Rotated, or shrunk (emptied by someone else): growth is measured from here.
      const from = rotating ? 0 : size;
      this.files.set(file, { size: from, at: now, last: from, lastAt: now });
    } else {
      if (size > growth.last) Object.assign(growth, { last: size, lastAt: now });
      this.files.set(file, growth);
    }
    return dueInMs;
  }

  /**
   * A file written to now: if it had not grown for `idleMs` or more and is the size it was
   * (`sizeNow`, read only then; null: gone), it starts to grow here. Measured from before the
   * idle spell, a sudden flood would look slow.
   */
  wokeUp(file: string, now: number, idleMs: number, sizeNow: () => number | null): void {
    const growth = this.files.get(file);
    if (!growth || now - growth.lastAt < idleMs) return;
    const size = sizeNow();
    if (size === null) this.files.delete(file);
    else if (size === growth.last) this.files.set(file, { size, at: now, last: size, lastAt: now });
  }

  forget(file: string): void {
    this.files.delete(file);
  }

  /** Forgets the files `keep` rejects (a removed program's, a name the directory watch reported). */
  retain(keep: (file: string) => boolean): void {
    for (const file of this.files.keys()) if (!keep(file)) this.files.delete(file);
  }
}
