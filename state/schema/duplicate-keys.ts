/**
 * JSON.parse keeps the last of two equal keys in one object, so `{"env": {...}, "env": {...}}`
 * would drop the first silently; TOML and YAML refuse such a document, and so does svc for JSON.
 * One linear scan of text JSON.parse has accepted (so it is well formed).
 */
export function duplicateKeyAt(text: string): { offset: number; key: string } | null {
  // One frame per open object or array: the keys seen so far (objects), and whether the next string is a key.
  const frames: { keys: Set<string> | null; wantKey: boolean }[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const end = closingQuote(text, i);
      const top = frames[frames.length - 1];
      if (top?.keys && top.wantKey) {
        const raw = text.slice(i + 1, end);
        const key = raw.includes('\\') ? (JSON.parse(text.slice(i, end + 1)) as string) : raw;
        if (top.keys.has(key)) return { offset: i, key };
        top.keys.add(key);
        top.wantKey = false;
      }
      i = end;
    } else if (c === 0x7b) frames.push({ keys: new Set(), wantKey: true }); // {
    else if (c === 0x5b) frames.push({ keys: null, wantKey: false }); // [
    else if (c === 0x7d || c === 0x5d) frames.pop(); // } ]
    else if (c === 0x2c) {
      const top = frames[frames.length - 1]; // ,
      if (top?.keys) top.wantKey = true;
    }
  }
  return null;
}

function closingQuote(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c) i++;
    else if (c === 0x22) return i;
  }
  return text.length;
}
