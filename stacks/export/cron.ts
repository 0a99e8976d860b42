import { CronExpressionParser } from 'cron-parser';
import { cronHashSeed } from '../../state/cron-hash.js';

/** A cron expression read by the same parser svc schedules with (cron-parser 5). */
interface CronFields {
  second: number[];
  minute: number[];
  hour: number[];
  /** Numbers, and `L` for the last day of the month. */
  dayOfMonth: (number | string)[];
  month: number[];
  /** Numbers 0-7 (0 and 7 are Sunday), or `5L` (the last Friday). */
  dayOfWeek: (number | string)[];
  /** `1#2`: the 2nd day of its kind in the month (0 when unused). */
  nthDay: number;
  domWildcard: boolean;
  dowWildcard: boolean;
  /** Six fields, seconds first, aliases and names resolved: `0 30 2 * * *`. */
  normalized: string;
}

/** `name`: the program's, which picks the value of an `H` as svcd does (state/cron-hash.ts). */
export function readCron(expression: string, name = ''): CronFields {
  const f = CronExpressionParser.parse(expression, { strict: false, hashSeed: cronHashSeed(expression, name) }).fields;
  return {
    second: f.second.values,
    minute: f.minute.values,
    hour: f.hour.values,
    dayOfMonth: f.dayOfMonth.values,
    month: f.month.values,
    dayOfWeek: f.dayOfWeek.values,
    nthDay: (f.dayOfWeek as unknown as { nthDay?: number }).nthDay ?? 0,
    domWildcard: f.dayOfMonth.isWildcard,
    dowWildcard: f.dayOfWeek.isWildcard,
    normalized: f.stringify(true),
  };
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const pad = (n: number) => String(n).padStart(2, '0');

/** `00/15` for an arithmetic run to the field's end, `a..b` for consecutive runs, else a list. */
function compress(values: number[], min: number, max: number, fmt: (n: number) => string = pad): string {
  const v = [...new Set(values)].sort((a, b) => a - b);
  if (v.length === max - min + 1) return '*';
  if (v.length >= 2) {
    const step = v[1] - v[0];
    const progression = v.every((x, i) => x === v[0] + i * step);
    if (progression && step > 1 && v[v.length - 1] + step > max && v[0] - min < step) return `${fmt(v[0])}/${step}`;
  }
  const parts: string[] = [];
  for (let i = 0; i < v.length; ) {
    let j = i;
    while (j + 1 < v.length && v[j + 1] === v[j] + 1) j++;
    parts.push(j - i >= 2 ? `${fmt(v[i])}..${fmt(v[j])}` : v.slice(i, j + 1).map(fmt).join(','));
    i = j + 1;
  }
  return parts.join(',');
}

/**
 * systemd `OnCalendar=` values for a cron expression (systemd.time(7)): one, or two when both
 * day fields are restricted, because cron fires when either matches and a calendar spec needs
 * both. `L` becomes `~01` (last day), `5L` `Fri *-*~07/1`, `1#2` `Mon *-*-08..14`.
 */
export function toOnCalendar(expression: string, tz?: string, name = ''): string[] {
  const c = readCron(expression, name);
  const time = `${compress(c.hour, 0, 23)}:${compress(c.minute, 0, 59)}:${compress(c.second, 0, 59)}`;
  const month = compress(c.month, 1, 12);
  const zone = tz ? ` ${tz}` : '';
  const specs: string[] = [];
  const domNumbers = c.dayOfMonth.filter((d): d is number => typeof d === 'number');
  const dowNumbers = [...new Set(c.dayOfWeek.filter((d): d is number => typeof d === 'number').map((d) => d % 7))];
  const dowSpecial = c.dayOfWeek.filter((d): d is string => typeof d === 'string');
  if (c.domWildcard || !c.dowWildcard) {
    // Day-of-week restricted (or nothing restricted): the days come from the weekday field.
    const days = c.dowWildcard ? '' : `${compress(dowNumbers, 0, 6, (n) => DAYS[n] ?? String(n))} `;
    if (dowNumbers.length > 0 || c.dowWildcard) {
      if (c.nthDay > 0) specs.push(`${days}*-${month}-${pad(c.nthDay * 7 - 6)}..${pad(c.nthDay * 7)} ${time}${zone}`);
      else specs.push(`${days}*-${month}-* ${time}${zone}`);
    }
    for (const s of dowSpecial) specs.push(`${DAYS[Number(s.replace('L', '')) % 7]} *-${month}~07/1 ${time}${zone}`);
  }
  if (!c.domWildcard) {
    if (domNumbers.length > 0) specs.push(`*-${month}-${compress(domNumbers, 1, 31)} ${time}${zone}`);
    if (c.dayOfMonth.includes('L')) specs.push(`*-${month}~01 ${time}${zone}`);
  }
  return specs;
}

/** Aliases Nomad's cron library knows (github.com/hashicorp/cronexpr). */
const NOMAD_ALIASES = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@hourly']);

/**
 * A Nomad `periodic` cron spec: 5-field expressions and Nomad's aliases as they are; svc's
 * 6-field form (seconds first) and other aliases as Nomad's 7 fields (seconds ... year).
 */
export function toNomadCron(expression: string, name = ''): string {
  const trimmed = expression.trim();
  const fields = trimmed.split(/\s+/);
  // Nomad knows no `H`: its values are written out, as svcd picks them.
  if ((fields.length === 5 && cronHashSeed(trimmed, name) === undefined) || NOMAD_ALIASES.has(trimmed)) return trimmed;
  return `${readCron(trimmed, name).normalized} *`;
}
