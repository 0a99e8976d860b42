/**
 * svcd reads an `env_file` as a dotenv file (the dotenv package: `export NAME=`, `#` comments
 * after a value, `\n` in double quotes, backtick quotes); systemd's `EnvironmentFile=` has its
 * own, shell-like reader (systemd's env-file.c) that reads some of those lines otherwise.
 */

/** One line that systemd would read otherwise than svcd, and how. */
export interface EnvFileDifference {
  line: number;
  why: string;
}

const KEY = /^\s*(export\s+)?([\w.-]+)\s*(=|:\s)(.*)$/;

/** The lines of a dotenv file whose variable systemd's EnvironmentFile= would drop or read with another value. */
export function systemdReadsOtherwise(text: string): EnvFileDifference[] {
  const out: EnvFileDifference[] = [];
  const lines = text.split(/\r?\n/);
  let open: string | null = null; // the quote of a value that continues on the next lines
  lines.forEach((raw, index) => {
    if (open) {
      if (raw.includes(open)) open = null;
      return;
    }
    const m = KEY.exec(raw);
    if (!m) return;
    const [, exported, name, separator, rest] = m as unknown as [string, string | undefined, string, string, string];
    const line = index + 1;
    if (exported) return out.push({ line, why: `'export ${name}': systemd takes the whole 'export ${name}' as the name and ignores the line` });
    if (separator !== '=') return out.push({ line, why: `'${name}:': systemd needs '=' and ignores the line` });
    const value = rest.trimStart();
    const quote = value[0];
    if (quote === '"' || quote === "'" || quote === '`') {
      const end = value.indexOf(quote, 1);
      if (end < 0) {
        open = quote;
        if (quote === '`') out.push({ line, why: 'a `backtick-quoted` value: systemd keeps the backticks' });
        return;
      }
      const inside = value.slice(1, end);
      const after = value.slice(end + 1).trim();
      if (quote === '`') out.push({ line, why: 'a `backtick-quoted` value: systemd keeps the backticks' });
      else if (quote === '"' && /\\[nr]/.test(inside)) out.push({ line, why: '\\n or \\r in double quotes: svc reads a newline, systemd a backslash and a letter' });
      else if (after.startsWith('#')) out.push({ line, why: 'a # comment after the quoted value: systemd makes it part of the value' });
      return;
    }
    if (value.includes('#')) out.push({ line, why: 'an unquoted value with #: svc ends the value there (a comment), systemd keeps the rest' });
  });
  return out;
}
