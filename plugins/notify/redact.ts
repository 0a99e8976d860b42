import type { Channel } from './config/types.js';

export const REDACTED = '[redacted]';

/**
 * A webhook URL as viewers and operators see it: scheme and host only. Chat-service webhooks
 * carry their secret in the path (Slack's `/services/T…/B…/…`), so the whole path and query go.
 */
export function redactWebhook(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}/${REDACTED}`;
  } catch {
    return REDACTED;
  }
}

/** The shortest piece of a URL or header value worth scrubbing; shorter ones are common words ("api", "v1"). */
const MIN_SECRET = 6;

/**
 * The secret parts of a channel: its URL's path, query and user info (whole and piece by
 * piece, decoded too) and its header values. A receiver's answer can echo them, an Express
 * 404 for one (`Cannot POST /hooks/<token>`).
 */
function secretsOf(c: Pick<Channel, 'url' | 'headers'>): string[] {
  const values = Object.values(c.headers);
  const out = new Set<string>([c.url, ...values, ...values.flatMap((v) => v.split(/\s+/))]);
  try {
    const u = new URL(c.url);
    const pieces = [u.pathname + u.search, u.pathname, u.search, u.search.slice(1), u.username, u.password, ...u.pathname.split('/'), ...[...u.searchParams].flat()];
    for (const p of pieces) {
      out.add(p);
      try {
        out.add(decodeURIComponent(p));
      } catch {
        // not percent-encoded text: the raw piece is enough
      }
    }
  } catch {
    // not a URL (validated channels always are): the whole value is scrubbed above
  }
  return [...out].filter((s) => s.length >= MIN_SECRET).sort((a, b) => b.length - a.length);
}

/**
 * A delivery error as anyone may see it (the event history, the status counters, the test
 * route): every secret part of the channel replaced by `[redacted]`.
 */
export function scrubSecrets(text: string, c: Pick<Channel, 'url' | 'headers'>): string {
  let out = text;
  for (const s of secretsOf(c)) out = out.split(s).join(REDACTED);
  return out;
}

export function redactChannel(c: Channel): Channel {
  return { ...c, url: redactWebhook(c.url), headers: Object.fromEntries(Object.keys(c.headers).map((k) => [k, REDACTED])) };
}

/**
 * An operator edits channels without seeing their secrets: a channel sent back with its
 * redacted URL (or a header value `[redacted]`) keeps the stored one of the channel of that name.
 * Stored header values are kept only while the channel still posts to its stored URL: moved to
 * another URL they would be sent to a receiver the operator chose (a token they may not read).
 */
export function keepRedacted(next: Channel[], current: Channel[]): Channel[] {
  const byName = new Map(current.map((c) => [c.name, c]));
  return next.map((c) => {
    const old = byName.get(c.name);
    if (!old) return c;
    const url = c.url === redactWebhook(old.url) ? old.url : c.url;
    const keep = (k: string, v: string) => v === REDACTED && url === old.url && old.headers[k] !== undefined;
    const headers = Object.fromEntries(Object.entries(c.headers).map(([k, v]) => [k, keep(k, v) ? old.headers[k] : v]));
    return { ...c, url, headers };
  });
}

/** A URL still redacted after keepRedacted: the operator sent a placeholder for a channel it does not know. */
export function stillRedacted(c: Channel): boolean {
  return c.url.includes(REDACTED) || c.url.includes(encodeURIComponent(REDACTED)) || Object.values(c.headers).includes(REDACTED);
}
