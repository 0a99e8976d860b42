import { EVENT_TYPES, type EventType } from '../../../state/events/types.js';
import { CHANNEL_KINDS, DEFAULT_DELIVERY, DEFAULT_SUPPRESSION, SEVERITIES, type Channel, type Delivery, type NotifyConfig, type Suppression } from './types.js';

/** A notify configuration problem; the message names where (file:line or JSON path) and the key. */
export class NotifyConfigError extends Error {
  override name = 'NotifyConfigError';
}

/**
 * Where a key is, for messages: `section` is `suppression`, `delivery` or `channel`; `index`
 * the channel's position. TOML files answer with `file:line`, JSON bodies with a path.
 */
export type Locate = (section: string, index: number | null, key: string | null) => string;

type Check = (value: unknown) => string | null;

const integer = (min: number, max: number): Check => (v) => {
  const n = typeof v === 'bigint' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n)) return 'must be an integer';
  if (n < min) return `must be at least ${min}`;
  if (n > max) return `must be at most ${max}`;
  return null;
};
const number = (min: number, max: number): Check => (v) => {
  if (typeof v !== 'number' || !Number.isFinite(v)) return 'must be a number';
  return v < min ? `must be at least ${min}` : v > max ? `must be at most ${max}` : null;
};
const boolean: Check = (v) => (typeof v === 'boolean' ? null : 'must be true or false');

const SUPPRESSION_KEYS: Record<keyof Suppression, Check> = {
  rate_per_minute: number(0.01, 6000),
  burst: integer(1, 1000),
  group_window_secs: integer(0, 3600),
  inhibit_backoff_after_fatal: boolean,
  inhibit_exits_on_shutdown: boolean,
};
const DELIVERY_KEYS: Record<keyof Delivery, Check> = {
  timeout_secs: integer(1, 300),
  retries: integer(0, 10),
  retry_backoff_ms: integer(0, 600_000),
  queue_size: integer(1, 100_000),
  concurrency: integer(1, 64),
};
const CHANNEL_KEYS = new Set(['name', 'kind', 'url', 'events', 'programs', 'min_severity', 'enabled', 'headers', ...Object.keys(SUPPRESSION_KEYS)]);
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
/** Headers of the request framing: given by hand, the HTTP client refuses every request (or the body breaks). */
const RESERVED_HEADERS = new Set(['content-length', 'transfer-encoding', 'keep-alive', 'upgrade', 'expect']);

function isTable(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

function num(v: unknown): number {
  return typeof v === 'bigint' ? Number(v) : (v as number);
}

/**
 * Checks a parsed notify configuration (from conf/notify.toml or a PUT body) and fills the
 * defaults. Throws NotifyConfigError naming the place and the key of the first problem.
 */
export function validateNotifyConfig(raw: unknown, at: Locate, listName = 'channel'): NotifyConfig {
  const fail = (section: string, index: number | null, key: string | null, msg: string): never => {
    throw new NotifyConfigError(prefixed(at(section, index, key), msg));
  };
  if (!isTable(raw)) return fail('', null, null, 'must be a table with [suppression], [delivery] and [[channel]] entries');
  for (const key of Object.keys(raw)) {
    if (!['suppression', 'delivery', 'channel'].includes(key)) fail(key, null, null, `unknown key ${key} (expected suppression, delivery, ${listName})`);
  }
  const suppression = table(raw.suppression, 'suppression', SUPPRESSION_KEYS, DEFAULT_SUPPRESSION, at) as unknown as Suppression;
  const delivery = table(raw.delivery, 'delivery', DELIVERY_KEYS, DEFAULT_DELIVERY, at) as unknown as Delivery;
  const list = raw.channel ?? [];
  if (!Array.isArray(list)) return fail('channel', null, null, 'channel must be a list of tables ([[channel]])');
  const channels = list.map((c, i) => channel(c, i, suppression, at, listName));
  const seen = new Set<string>();
  channels.forEach((c, i) => {
    if (seen.has(c.name)) fail('channel', i, 'name', `${listName}[${i}].name: duplicate channel name '${c.name}'`);
    seen.add(c.name);
  });
  return { suppression, delivery, channels };
}

function table(value: unknown, section: string, keys: Record<string, Check>, defaults: object, at: Locate): Record<string, unknown> {
  if (value === undefined) return { ...defaults };
  if (!isTable(value)) throw new NotifyConfigError(prefixed(at(section, null, null), `${section} must be a table`));
  const out: Record<string, unknown> = { ...defaults };
  for (const [key, v] of Object.entries(value)) {
    const check = keys[key];
    if (!check) throw new NotifyConfigError(prefixed(at(section, null, key), `unknown key ${section}.${key}`));
    const problem = check(v);
    if (problem) throw new NotifyConfigError(prefixed(at(section, null, key), `${section}.${key}: ${problem}`));
    out[key] = typeof v === 'bigint' ? Number(v) : v;
  }
  return out;
}

function prefixed(where: string, msg: string): string {
  return where ? `${where}: ${msg}` : msg;
}

function channel(value: unknown, i: number, defaults: Suppression, at: Locate, listName: string): Channel {
  const label = (key: string) => `${listName}[${i}]${isTable(value) && typeof value.name === 'string' ? ` (name=${value.name})` : ''}.${key}`;
  const fail = (key: string | null, msg: string): never => {
    throw new NotifyConfigError(prefixed(at('channel', i, key), `${key ? `${label(key)}: ` : `${listName}[${i}]: `}${msg}`));
  };
  if (!isTable(value)) return fail(null, 'must be a table');
  for (const key of Object.keys(value)) if (!CHANNEL_KEYS.has(key)) fail(key, `unknown key (expected one of ${[...CHANNEL_KEYS].join(', ')})`);
  const { name, kind, url } = value;
  if (typeof name !== 'string' || !NAME.test(name)) fail('name', 'required: 1-64 letters, digits, dot, dash or underscore, starting with a letter or digit');
  if (typeof kind !== 'string' || !(CHANNEL_KINDS as readonly string[]).includes(kind)) fail('kind', `must be one of ${CHANNEL_KINDS.join(', ')}`);
  if (typeof url !== 'string') return fail('url', 'required: the webhook URL (http or https)');
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {
    // Not echoed: the URL is a secret (docs/notify.md) and this message is shown to viewers and logged.
    fail('url', 'not a URL (an absolute http:// or https:// URL; the value is not shown, webhook URLs are secrets)');
  }
  if (parsed && parsed.protocol !== 'https:' && parsed.protocol !== 'http:') fail('url', 'must be http or https');
  const events = stringList(value.events, 'events', fail);
  for (const e of events) if (!(EVENT_TYPES as readonly string[]).includes(e)) fail('events', `unknown event type '${e}'`);
  for (const e of events) if (e.startsWith('notify_')) fail('events', `${e} is notify's own record and is never sent to a channel`);
  const programs = stringList(value.programs, 'programs', fail);
  for (const p of programs) if (p === '') fail('programs', 'an empty name or glob matches nothing');
  const severity = value.min_severity ?? 'warning';
  if (typeof severity !== 'string' || !(SEVERITIES as readonly string[]).includes(severity)) fail('min_severity', `must be one of ${SEVERITIES.join(', ')}`);
  const enabled = value.enabled ?? true;
  if (typeof enabled !== 'boolean') fail('enabled', 'must be true or false');
  const headers = value.headers ?? {};
  if (!isTable(headers)) return fail('headers', 'must be a table of header names to string values');
  for (const [h, v] of Object.entries(headers)) {
    if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(h)) fail('headers', `invalid header name '${h}'`);
    if (RESERVED_HEADERS.has(h.toLowerCase())) fail('headers', `header '${h}' is set by svc's HTTP client and cannot be given (every delivery would fail)`);
    // The value is a secret: not shown. Tab is the one control character a header value may hold.
    // eslint-disable-next-line no-control-regex
    if (typeof v !== 'string' || /[\x00-\x08\x0a-\x1f\x7f]/.test(v)) fail('headers', `header '${h}' must be a one-line string without control characters`);
  }
  const suppression: Record<string, unknown> = { ...defaults };
  for (const [key, check] of Object.entries(SUPPRESSION_KEYS)) {
    if (!(key in value)) continue;
    const problem = check(value[key]);
    if (problem) fail(key, problem);
    suppression[key] = typeof value[key] === 'bigint' ? num(value[key]) : value[key];
  }
  return {
    name: name as string,
    kind: kind as Channel['kind'],
    url,
    events: events as EventType[],
    programs,
    min_severity: severity as Channel['min_severity'],
    enabled: enabled as boolean,
    headers: headers as Record<string, string>,
    suppression: suppression as unknown as Suppression,
  };
}

function stringList(v: unknown, key: string, fail: (key: string, msg: string) => never): string[] {
  if (v === undefined) return [];
  if (!Array.isArray(v) || v.some((s) => typeof s !== 'string')) return fail(key, 'must be a list of strings');
  return v as string[];
}
