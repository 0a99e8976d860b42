/** Spec: artifact sources are https; plain http only for loopback hosts (also each redirect hop). */
export function isAllowedArtifactUrl(source: string): boolean {
  try {
    const url = new URL(source);
    if (url.protocol === 'https:') return true;
    const host = url.hostname.replace(/^\[|\]$/g, '');
    return url.protocol === 'http:' && (host === 'localhost' || host === '::1' || host.startsWith('127.'));
  } catch {
    return false;
  }
}
