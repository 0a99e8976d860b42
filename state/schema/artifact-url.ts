import { isLoopbackHost } from '../loopback.js';

/** Spec: artifact sources are https; plain http only for loopback hosts (also each redirect hop). */
export function isAllowedArtifactUrl(source: string): boolean {
  try {
    const url = new URL(source);
    if (url.protocol === 'https:') return true;
    const host = url.hostname.replace(/^\[|\]$/g, '');
    return url.protocol === 'http:' && isLoopbackHost(host); // by address: 127.example.com is not loopback
  } catch {
    return false;
  }
}
