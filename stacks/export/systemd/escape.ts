/**
 * systemd unit-file escaping (systemd.unit(5), systemd.service(5) "Command lines",
 * systemd.syntax(7)): `%` starts a specifier and `$` a variable in command lines, quotes and
 * C-style backslash escapes group and escape words.
 */

/** `%` is a specifier everywhere in unit files: write `%%`. */
export function noSpecifiers(text: string): string {
  return text.replace(/%/g, '%%');
}

/**
 * A one-line directive value (a path, a user name) with `%` doubled, or null when systemd cannot
 * read it back: these directives have no escape for a line break, and a trailing `\` joins the
 * next line to the value.
 */
export function singleLineValue(text: string): string | null {
  if (/[\n\r]/.test(text) || text.endsWith('\\')) return null;
  return noSpecifiers(text);
}

const SAFE_WORD = /^[A-Za-z0-9_./:=@+,-]+$/;

function cEscape(text: string): string {
  return text.replace(/[\\"\p{Cc}]/gu, (ch) => {
    switch (ch) {
      case '\\':
        return '\\\\';
      case '"':
        return '\\"';
      case '\n':
        return '\\n';
      case '\t':
        return '\\t';
      case '\r':
        return '\\r';
      default:
        // C1 controls are UTF-8 text for systemd; only ASCII ones need an escape.
        return ch.charCodeAt(0) > 0x7f ? ch : `\\x${ch.charCodeAt(0).toString(16).padStart(2, '0')}`;
    }
  });
}

/**
 * One word of `ExecStart=` (and the other Exec lines): exactly the argument the process gets.
 * `$` is doubled (no variable expansion), `%` too (no specifiers); words with anything else than
 * plain characters are double-quoted with C escapes; a lone `;` is escaped (a command separator).
 */
export function execWord(word: string): string {
  if (word === '') return '""';
  if (word === ';') return '\\;';
  const literal = word.replace(/%/g, '%%').replace(/\$/g, '$$$$');
  if (SAFE_WORD.test(word)) return literal;
  return `"${cEscape(word).replace(/%/g, '%%').replace(/\$/g, '$$$$')}"`;
}

/** A whole command line for an Exec directive. */
export function execLine(argv: string[]): string {
  return argv.map(execWord).join(' ');
}

/** One `Environment=` assignment, quoted: `"KEY=value"` (Environment= does not expand `$`). */
export function environmentAssignment(key: string, value: string): string {
  return `"${noSpecifiers(cEscape(`${key}=${value}`))}"`;
}

/**
 * A unit name for an svc program: svc names allow `@`, which in a unit name makes a template
 * instance, so it is escaped as systemd-escape does (`\x40`); `prefix` namespaces the units.
 */
export function unitName(program: string, prefix: string, suffix: 'service' | 'timer'): string {
  const escaped = `${prefix}${program}`.replace(/[^A-Za-z0-9:_.-]/g, (ch) => `\\x${ch.charCodeAt(0).toString(16).padStart(2, '0')}`);
  return `${escaped}.${suffix}`;
}
