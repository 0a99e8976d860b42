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
