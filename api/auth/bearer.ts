/** Longest credential accepted; anything longer is refused without being compared. */
export const MAX_CREDENTIAL = 4096;

/**
 * The credential of an `Authorization: Bearer <credential>` header, or null when the header is
 * absent, uses another scheme, or the credential is empty, too long or holds control
 * characters. The scheme is case-insensitive (RFC 7235); spaces around the credential are
 * dropped, spaces inside it are kept (an admin secret may be a phrase).
 */
export function parseBearer(header: string | undefined | null): string | null {
  if (typeof header !== 'string') return null;
  const m = /^[ \t]*bearer[ \t]+([^]*)$/i.exec(header);
  if (!m) return null;
  return checkCredential((m[1] ?? '').replace(/[ \t]+$/, ''));
}

/** The credential if it is usable (see parseBearer), else null. */
export function checkCredential(value: string): string | null {
  if (value.length === 0 || value.length > MAX_CREDENTIAL) return null;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return null;
  }
  return value;
}
