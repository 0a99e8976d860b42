import type { LogLine } from '../../api/wire.js';

/**
 * `svc logs -f` opens the stream before it reads the tail, so that no line falls between the two;
 * lines written in between arrive on the stream and are in the tail too. Returns the streamed
 * lines (`early`, in arrival order) that the tail does not already show. Per source, the lines
 * that were in the file when the tail was read are a run at the start of `early` that ends with
 * the tail's last lines: the longest such run is dropped. With an empty tail nothing can be told,
 * so nothing is dropped. The stream carries no file offsets, so a line repeated word for word
 * may be taken for one the tail showed, and a line that was in the file but not yet streamed
 * when the tail was read (the daemon's follower a moment behind) still shows twice.
 */
export function afterTail<T extends LogLine>(tail: LogLine[], early: T[]): T[] {
  const dropped = new Set<T>();
  for (const source of ['stdout', 'stderr'] as const) {
    const shown = tail.filter((l) => l.source === source).map((l) => l.content);
    const streamed = early.filter((l) => l.source === source);
    if (shown.length === 0) continue;
    for (let j = streamed.length; j > 0; j--) {
      const m = Math.min(j, shown.length);
      let same = true;
      for (let k = 1; k <= m && same; k++) same = streamed[j - k].content === shown[shown.length - k];
      if (!same) continue;
      for (const line of streamed.slice(0, j)) dropped.add(line);
      break;
    }
  }
  return early.filter((l) => !dropped.has(l));
}
