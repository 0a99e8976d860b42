/**
 * supervisord expands `%(name)s`-style references (Python %-formatting against a dictionary) in
 * its options: `%(program_name)s`, `%(process_num)02d`, `%(group_name)s`, `%(host_node_name)s`,
 * `%(numprocs)d`, `%(here)s` and `%(ENV_X)s`; `%%` is a literal `%`.
 */
const REFERENCE = /%(%|\(([^)]*)\)([#0\- +]*)(\d*)(?:\.(\d+))?([sdirfxXo]))/g;

export type Expansions = Record<string, string | number>;

/** `%(ENV_X)s` for every variable of `env` (the environment svc import runs in). */
export function envExpansions(env: Record<string, string | undefined>): Expansions {
  const out: Expansions = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[`ENV_${k}`] = v;
  return out;
}

/** Expands `value`; an unknown name is an error naming the option, as supervisord reports it. */
export function expand(value: string, expansions: Expansions, option: string): { value: string; used: string[] } {
  const used: string[] = [];
  const out = value.replace(REFERENCE, (whole, body: string, name: string | undefined, flags: string, width: string, precision: string | undefined, conv: string) => {
    if (body === '%') return '%';
    const v = expansions[name ?? ''];
    if (v === undefined) {
      throw new Error(`${option}: %(${name})${conv} cannot be expanded (known: ${Object.keys(expansions).filter((k) => !k.startsWith('ENV_')).join(', ')}, ENV_<variable>)`);
    }
    used.push(name ?? '');
    return pad(format(v, conv, precision), flags, width);
  });
  return { value: out, used };
}

function format(v: string | number, conv: string, precision: string | undefined): string {
  switch (conv) {
    case 'd':
    case 'i':
      return String(Math.trunc(Number(v)));
    case 'f':
      return Number(v).toFixed(precision === undefined ? 6 : Number(precision));
    case 'x':
      return Math.trunc(Number(v)).toString(16);
    case 'X':
      return Math.trunc(Number(v)).toString(16).toUpperCase();
    case 'o':
      return Math.trunc(Number(v)).toString(8);
    case 'r':
      return `'${String(v)}'`;
    default:
      return precision === undefined ? String(v) : String(v).slice(0, Number(precision));
  }
}

function pad(text: string, flags: string, width: string): string {
  const w = Number(width || 0);
  if (text.length >= w) return text;
  if (flags.includes('-')) return text.padEnd(w);
  if (flags.includes('0') && /^-?\d/.test(text)) {
    const negative = text.startsWith('-');
    const digits = negative ? text.slice(1) : text;
    return (negative ? '-' : '') + digits.padStart(w - (negative ? 1 : 0), '0');
  }
  return text.padStart(w);
}
