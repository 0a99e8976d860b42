import type { ProgramSummary } from '../../api/wire.js';
import { nameGlob } from '../../state/name-glob.js';
import { PROGRAM_STATUSES } from '../../state/status.js';
import { shownStatus } from '../client/shown-status.js';
import { CliError } from './errors.js';

/** What `svc list` can filter by: the statuses it shows (Removing included). */
const LISTED_STATUSES = [...PROGRAM_STATUSES, 'Removing'];

export interface ListFlags {
  status?: string;
  group?: string;
}

type Listed = Pick<ProgramSummary, 'id' | 'name' | 'group_name' | 'status' | 'removed'>;

/**
 * Which programs `svc list PATTERN... [--status S,S] [--group G]` shows, as systemctl list-units
 * filters: a program matches one of the patterns (a name, with `*`, `?` and `[abc]` as wildcards; an id;
 * `GROUP:*`; `GROUP:NAME`), and the status and group flags. No pattern: every program.
 */
export function listFilter(patterns: string[], flags: ListFlags): (p: Listed) => boolean {
  const statuses = flags.status === undefined ? null : statusSet(flags.status);
  const matchers = patterns.map(patternMatcher);
  return (p) =>
    (matchers.length === 0 || matchers.some((m) => m(p))) &&
    (statuses === null || statuses.has(shownStatus(p).toLowerCase())) &&
    (flags.group === undefined || p.group_name === flags.group);
}

function statusSet(list: string): Set<string> {
  const wanted = list.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (wanted.length === 0) throw new CliError(`--status: name one or more statuses, comma-separated (${LISTED_STATUSES.join(', ')})`, 2);
  for (const s of wanted) {
    if (!LISTED_STATUSES.some((known) => known.toLowerCase() === s.toLowerCase())) throw new CliError(`--status: unknown status '${s}' (one of: ${LISTED_STATUSES.join(', ')})`, 2);
  }
  return new Set(wanted.map((s) => s.toLowerCase()));
}

function patternMatcher(word: string): (p: Listed) => boolean {
  const colon = word.indexOf(':');
  if (colon >= 0) {
    const group = word.slice(0, colon);
    const rest = word.slice(colon + 1);
    if (!group || !rest) throw new CliError(`'${word}': use GROUP:* or GROUP:NAME`, 2);
    const name = globOf(word, rest);
    return (p) => p.group_name === group && (name.test(p.name) || p.id === rest.toLowerCase());
  }
  const name = globOf(word, word);
  // An id in any case, as the other commands take it (tui/cli/programs.ts).
  return (p) => name.test(p.name) || p.id === word.toLowerCase();
}

/** The pattern as a RegExp; a malformed class (`[z-a]`) is a usage error, as reactions.toml refuses it. */
function globOf(word: string, pattern: string): RegExp {
  try {
    return nameGlob(pattern);
  } catch (err) {
    throw new CliError(`'${word}': not a valid pattern (${(err as Error).message})`, 2);
  }
}
