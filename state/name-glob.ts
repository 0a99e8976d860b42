/**
 * fnmatch-style `*`, `?`, `[abc]`, `[!abc]` over a whole program name, as a regular expression:
 * the programs of an event reaction (conf/reactions.toml) and of `svc list PATTERN`.
 */
export function nameGlob(pattern: string): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '*') re += '.*';
    else if (ch === '?') re += '.';
    else if (ch === '[' && pattern.indexOf(']', i + 2) > 0) {
      const end = pattern.indexOf(']', i + 2);
      let set = pattern.slice(i + 1, end);
      if (set.startsWith('!')) set = `^${set.slice(1)}`;
      re += `[${set.replace(/\\/g, '\\\\')}]`;
      i = end;
    } else re += ch.replace(/[.+^${}()|\\[\]]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, 's');
}

/** Whether `name` matches the glob `pattern` (nameGlob). */
export function globMatches(pattern: string, name: string): boolean {
  return nameGlob(pattern).test(name);
}
