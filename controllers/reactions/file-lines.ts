/**
 * Line number (1-based) of `key` inside the `index`-th `[[reaction]]` table of a reactions file,
 * or of that table's header when `key` is absent or not found there; 0 when unknown. Like
 * conf/load-config.ts findLine, a text scan: smol-toml does not report value positions.
 */
export function reactionLine(text: string, index: number, key?: string): number {
  const lines = text.split('\n');
  let table = -1;
  let header = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] ?? '').trim();
    if (/^\[\[\s*reaction\s*\]\]/.test(line)) {
      if (table === index) break; // the next table starts: the key is not written in ours
      table++;
      if (table === index) header = i + 1;
      continue;
    }
    if (/^\[/.test(line)) {
      if (table === index) break;
      continue;
    }
    if (table !== index || !key) continue;
    const m = /^["']?([A-Za-z0-9_-]+)["']?\s*=/.exec(line);
    if (m?.[1] === key) return i + 1;
  }
  return header;
}

/** Line of a top-level key (before any table), or 0. */
export function topLevelLine(text: string, key: string): number {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] ?? '').trim();
    if (line.startsWith('[')) return 0;
    const m = /^["']?([A-Za-z0-9_.-]+)["']?\s*=/.exec(line);
    if (m?.[1] === key) return i + 1;
  }
  return 0;
}
