import { isAbsolute, join } from 'node:path';

/** fnmatch-style `*`, `?`, `[seq]`, `[!seq]` for one path segment, as a regular expression. */
function segmentPattern(segment: string): RegExp {
  let re = '';
  for (let i = 0; i < segment.length; i++) {
    const ch = segment[i];
    if (ch === '*') re += '[^/]*';
    else if (ch === '?') re += '[^/]';
    else if (ch === '[') {
      const end = segment.indexOf(']', i + 2);
      if (end < 0) re += '\\[';
      else {
        let set = segment.slice(i + 1, end);
        if (set.startsWith('!')) set = `^${set.slice(1)}`;
        re += `[${set.replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else re += ch.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

const isGlob = (segment: string) => /[*?[]/.test(segment);

/**
 * Expands a glob pattern (relative to `base`) to the existing paths it names, sorted, as
 * Python's glob.glob does for supervisord's `[include] files`. Hidden entries match only a
 * pattern that starts with a dot.
 */
export function expandGlob(pattern: string, base: string, listDir: (path: string) => string[], exists: (path: string) => boolean): string[] {
  const absolute = isAbsolute(pattern) ? pattern : join(base, pattern);
  const segments = absolute.split('/').filter((s, i) => s !== '' || i === 0);
  let paths = ['/'];
  for (const segment of segments.slice(1)) {
    if (!isGlob(segment)) {
      paths = paths.map((p) => join(p, segment));
      continue;
    }
    const re = segmentPattern(segment);
    paths = paths.flatMap((dir) => {
      let names: string[];
      try {
        names = listDir(dir);
      } catch {
        return [];
      }
      return names.filter((n) => re.test(n) && (!n.startsWith('.') || segment.startsWith('.'))).map((n) => join(dir, n));
    });
  }
  return paths.filter((p) => exists(p)).sort();
}
