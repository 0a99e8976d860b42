import type { LogLine } from '../../api/wire.js';

type Source = LogLine['source'];

/** Per source: the tail's lines, and where the stream may stand in them (null: caught up). */
interface Alignment {
  shown: string[];
  /** Indexes into `shown` the next streamed line may repeat; `shown.length` = nothing left to repeat. */
  expect: Set<number> | null;
}

/**
 * `svc logs -f` opens the stream before it reads the tail, so that no line falls between the two;
 * lines written in between arrive on the stream and are in the tail too. This filter drops them,
 * per source:
 * - `early` (lines streamed before the tail was printed): the longest run at its start that ends
 *   with the tail's last lines was in the file when the tail was read; it is dropped, lines older
 *   than the tail included. Without such a run, lines that end inside the tail are dropped too.
 * - `keep` (lines streamed afterwards): the daemon's follower can be a moment behind the file, so
 *   lines the tail showed may still arrive. While the stream can be at a place in the tail, a line
 *   equal to the tail's line at that place is dropped; the first line that cannot be is new, and
 *   from then on every line is kept.
 * The stream carries no file offsets, so a line repeated word for word may be taken for one the
 * tail showed; with an empty tail nothing can be told and nothing is dropped.
 */
export class TailOverlap {
  private readonly sources = new Map<Source, Alignment>();

  constructor(tail: LogLine[]) {
    for (const source of ['stdout', 'stderr'] as const) {
      const shown = tail.filter((l) => l.source === source).map((l) => l.content);
      if (shown.length > 0) this.sources.set(source, { shown, expect: null });
    }
  }

  /** The lines streamed before the tail was printed (arrival order), without those it showed. */
  early<T extends LogLine>(early: T[]): T[] {
    const dropped = new Set<T>();
    for (const [source, a] of this.sources) {
      const streamed = early.filter((l) => l.source === source);
      const run = longestRunEndingWith(streamed, a.shown);
      for (const line of streamed.slice(0, run)) dropped.add(line);
      if (run > 0) {
        a.expect = null;
        continue;
      }
      // No such run: the stream may not have reached the tail's end yet. If what it sent ends
      // inside the tail, all of it was in the file already (the tail's lines, or older ones).
      const places = placesAfter(streamed, a.shown);
      const inside = streamed.length > 0 ? [...places].filter((at) => at > 0) : [];
      if (inside.length > 0) for (const line of streamed) dropped.add(line);
      a.expect = inside.length > 0 ? new Set(inside) : places;
    }
    return early.filter((l) => !dropped.has(l));
  }

  /** Whether a line streamed after the tail was printed is new (true) or one it showed (false). */
  keep(line: LogLine): boolean {
    const a = this.sources.get(line.source);
    if (!a?.expect) return true;
    const next = new Set<number>();
    for (const at of a.expect) if (at < a.shown.length && a.shown[at] === line.content) next.add(at + 1);
    a.expect = next.size === 0 || (next.size === 1 && next.has(a.shown.length)) ? null : next;
    return next.size === 0;
  }
}

/** Whether the lines of `streamed` before `streamedEnd` and of `shown` before `shownEnd` agree, as far as both go back. */
function sameBefore(streamed: LogLine[], streamedEnd: number, shown: string[], shownEnd: number): boolean {
  for (let k = 1; k <= Math.min(streamedEnd, shownEnd); k++) if (streamed[streamedEnd - k].content !== shown[shownEnd - k]) return false;
  return true;
}

/** The longest j such that streamed[0..j] ends with the lines shown last. */
function longestRunEndingWith(streamed: LogLine[], shown: string[]): number {
  for (let j = streamed.length; j > 0; j--) if (sameBefore(streamed, j, shown, shown.length)) return j;
  return 0;
}

/** Places in `shown` the stream may stand at, given that `streamed` came last before it (0 always). */
function placesAfter(streamed: LogLine[], shown: string[]): Set<number> {
  const places = new Set<number>();
  for (let at = 0; at < shown.length; at++) if (sameBefore(streamed, streamed.length, shown, at)) places.add(at);
  return places;
}
