import { isAbsolute, resolve } from 'node:path';
import { parse, TomlError } from 'smol-toml';
import { EVENT_TYPES, type EventType } from '../../state/events/types.js';
import { globMatches } from '../../state/name-glob.js';
import { reactionLine, topLevelLine } from './file-lines.js';
import { REACTION_EVENT_TYPES, type Reaction } from './types.js';

/** Every key a `[[reaction]]` table may hold (docs/reactions.md, "Keys"). */
const KEYS = ['name', 'events', 'programs', 'command', 'shell', 'cwd', 'timeout_secs', 'max_concurrent', 'cooldown_secs', 'env', 'enabled'] as const;
const NAME = /^[A-Za-z0-9_.-]{1,64}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const INTEGERS = { timeout_secs: [30, 1, 3600], max_concurrent: [1, 1, 64], cooldown_secs: [0, 0, 86_400] } as const;

/** The reactions of a file, or every problem found (each `file:line: reaction[i] (name=x).key: ...`). */
export type ParsedReactions = { ok: true; reactions: Reaction[] } | { ok: false; errors: string[] };

/**
 * Parses and validates the text of `conf/reactions.toml`. Pure: the file name is only used in
 * messages; relative `cwd` resolves under `root`. An empty text is a valid file with no reactions.
 */
export function parseReactionsFile(file: string, text: string, root: string): ParsedReactions {
  let raw: Record<string, unknown>;
  try {
    raw = parse(text);
  } catch (err) {
    if (err instanceof TomlError) return { ok: false, errors: [`${file}:${err.line}:${err.column}: ${err.message.split('\n')[0] ?? err.message}`] };
    throw err;
  }
  const errors: string[] = [];
  for (const key of Object.keys(raw)) {
    if (key !== 'reaction') errors.push(`${file}:${topLevelLine(text, key) || 1}: unknown key ${key} (reactions are [[reaction]] tables)`);
  }
  const tables = raw.reaction ?? [];
  if (!Array.isArray(tables)) return { ok: false, errors: [...errors, `${file}:${topLevelLine(text, 'reaction') || 1}: reaction must be an array of tables ([[reaction]])`] };
  const reactions: Reaction[] = [];
  const seen = new Set<string>();
  tables.forEach((table: unknown, i) => {
    const r = validateTable(table, (key, problem) => {
      const name = typeof (table as Record<string, unknown>)?.name === 'string' ? ` (name=${(table as Record<string, string>).name})` : '';
      errors.push(`${file}:${reactionLine(text, i, key ?? undefined)}: reaction[${i}]${name}${key ? `.${key}` : ''}: ${problem}`);
    }, root);
    if (!r) return;
    if (seen.has(r.name)) errors.push(`${file}:${reactionLine(text, i, 'name')}: reaction[${i}] (name=${r.name}).name: duplicate name '${r.name}'`);
    seen.add(r.name);
    reactions.push(r);
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, reactions };
}

type Report = (key: string | null, problem: string) => void;

function validateTable(table: unknown, report: Report, root: string): Reaction | null {
  if (typeof table !== 'object' || table === null || Array.isArray(table)) {
    report(null, 'must be a table');
    return null;
  }
  const t = table as Record<string, unknown>;
  let ok = true;
  const fail = (key: string | null, problem: string) => {
    ok = false;
    report(key, problem);
  };
  for (const key of Object.keys(t)) if (!(KEYS as readonly string[]).includes(key)) fail(key, `unknown key (one of ${KEYS.join(', ')})`);
  if (typeof t.name !== 'string' || !NAME.test(t.name)) fail('name', 'required: 1 to 64 letters, digits, _ . or -');
  const events = eventsOf(t.events, fail);
  const programs = programsOf(t.programs, fail);
  const shell = booleanOf(t, 'shell', false, fail);
  const command = commandOf(t.command, shell, fail);
  const cwd = t.cwd === undefined ? root : typeof t.cwd === 'string' && t.cwd !== '' ? (isAbsolute(t.cwd) ? t.cwd : resolve(root, t.cwd)) : (fail('cwd', 'must be a non-empty path'), root);
  const ints = Object.fromEntries(Object.entries(INTEGERS).map(([key, [def, min, max]]) => [key, integerOf(t[key], def, min, max, (p) => fail(key, p))])) as Record<keyof typeof INTEGERS, number>;
  const env = envOf(t.env, fail);
  const enabled = booleanOf(t, 'enabled', true, fail);
  if (!ok) return null;
  return { name: t.name as string, events, programs, command, shell, cwd, timeoutSecs: ints.timeout_secs, maxConcurrent: ints.max_concurrent, cooldownSecs: ints.cooldown_secs, env, enabled };
}

function eventsOf(value: unknown, fail: Report): (EventType | '*')[] {
  if (!Array.isArray(value) || value.length === 0) {
    fail('events', 'required: a non-empty array of event types, e.g. ["process_fatal"] (or ["*"])');
    return [];
  }
  const out: (EventType | '*')[] = [];
  for (const v of value) {
    if (v === '*') out.push('*');
    else if (typeof v === 'string' && (REACTION_EVENT_TYPES as readonly string[]).includes(v)) fail('events', `'${v}' cannot trigger a reaction (reactions never trigger themselves)`);
    else if (typeof v === 'string' && (EVENT_TYPES as readonly string[]).includes(v)) out.push(v as EventType);
    else fail('events', `unknown event type ${JSON.stringify(v)} (see docs/events.md)`);
  }
  return out;
}

function programsOf(value: unknown, fail: Report): string[] | null {
  if (value === undefined) return null;
  if (!Array.isArray(value) || value.length === 0 || !value.every((v) => typeof v === 'string' && v !== '')) {
    fail('programs', 'must be a non-empty array of program names or globs, e.g. ["web-*"]');
    return null;
  }
  // Checked here: a glob that cannot be matched (a class like [z-a]) would throw on every event,
  // and no reaction of the file would run.
  for (const glob of value as string[]) {
    try {
      globMatches(glob, '');
    } catch {
      fail('programs', `invalid glob ${JSON.stringify(glob)}: a character class is malformed (a range like [a-z] must go upwards)`);
    }
  }
  return value as string[];
}

function commandOf(value: unknown, shell: boolean, fail: Report): string[] {
  if (shell) {
    if (typeof value === 'string' && value.trim() !== '') return [value];
    fail('command', 'with shell = true: required, a non-empty command line string');
    return [];
  }
  if (typeof value === 'string') {
    fail('command', 'must be an array [path, args...]; set shell = true to run a shell command line');
    return [];
  }
  if (!Array.isArray(value) || value.length === 0 || !value.every((v) => typeof v === 'string') || value[0] === '') {
    fail('command', 'required: an array [path, args...] of strings, e.g. ["/usr/local/bin/on-fatal.sh", "--page"]');
    return [];
  }
  return value;
}

function integerOf(value: unknown, def: number, min: number, max: number, fail: (problem: string) => void): number {
  if (value === undefined) return def;
  const n = typeof value === 'bigint' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n)) fail('must be an integer');
  else if (n < min) fail(`must be at least ${min}`);
  else if (n > max) fail(`must be at most ${max}`);
  else return n;
  return def;
}

function booleanOf(t: Record<string, unknown>, key: string, def: boolean, fail: Report): boolean {
  const value = t[key];
  if (value === undefined) return def;
  if (typeof value === 'boolean') return value;
  fail(key, 'must be true or false');
  return def;
}

function envOf(value: unknown, fail: Report): Record<string, string> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fail('env', 'must be a table of NAME = "value"');
    return {};
  }
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    if (!ENV_NAME.test(k)) fail('env', `invalid variable name '${k}'`);
    else if (k.startsWith('SVC_')) fail('env', `'${k}': SVC_* variables are set by svc`);
    else if (typeof v !== 'string') fail('env', `'${k}' must be a string`);
    else out[k] = v;
  }
  return out;
}
