import { CliError } from './errors.js';

/**
 * What the program arguments of start/stop/restart/rm/signal name (docs/cli.md): `all` (PM2's
 * `pm2 restart all`), `GROUP:*` (supervisorctl: every program of the group), `GROUP:NAME` (one
 * program of that group), or a program name or id. A program named `all` is reached by its id.
 */
export interface Selection {
  all: boolean;
  groups: string[];
  /** Plain names or ids. */
  refs: string[];
  /** `GROUP:NAME`: the program must be in that group. */
  grouped: { group: string; ref: string }[];
}

/** What start, stop, ... and wait say when given no program at all. */
export const NAME_A_PROGRAM = 'name a program (name or id), all, GROUP:*, or use --all or --group NAME';

export function parseSelectors(words: string[]): Selection {
  const sel: Selection = { all: false, groups: [], refs: [], grouped: [] };
  for (const word of words) {
    const colon = word.indexOf(':');
    if (word === 'all') sel.all = true;
    else if (colon < 0) sel.refs.push(word);
    else {
      const group = word.slice(0, colon);
      const rest = word.slice(colon + 1);
      if (!group || !rest) throw new CliError(`'${word}': use GROUP:* or GROUP:NAME`, 2);
      if (rest === '*') sel.groups.push(group);
      else sel.grouped.push({ group, ref: rest });
    }
  }
  if (sel.all && words.length > 1) throw new CliError("'all' already names every program: give it alone", 2);
  return sel;
}
