/** What stands in for a secret that is not shown (docs/security.md, "What secrets redacted means"). */
export const REDACTED = '[redacted]';

/**
 * A URL with its password and query values replaced; text that is not a URL is left alone. The
 * API serves it to roles that do not see secrets, and svcd's own messages (events, OTA reasons)
 * name URLs this way for everyone: they are stored, listed to viewers and pushed to webhooks.
 */
export function redactUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return text;
  }
  const keys = [...new Set(url.searchParams.keys())];
  if (keys.length > 0) url.search = `?${keys.map((k) => `${encodeURIComponent(k)}=${REDACTED}`).join('&')}`;
  if (!url.password) return url.toString();
  url.password = 'REDACTED'; // the userinfo encoding would turn [redacted] into %5B...%5D
  return url.toString().replace(':REDACTED@', `:${REDACTED}@`);
}
