import { isIP } from 'node:net';
import { lookup } from 'node:dns/promises';

/**
 * The address svcd will bind for `[server] host`: an IP literal as is, a name resolved the way
 * `listen` resolves it (the first address). svcd then binds this address, so the loopback check
 * and the bind cannot disagree (`127.example.com` is whatever DNS says, not loopback by prefix).
 */
export async function resolveBindHost(host: string): Promise<string> {
  const bare = host.replace(/^\[|\]$/g, '');
  if (isIP(bare) !== 0) return bare;
  const { address } = await lookup(bare);
  // lookup('') answers { address: null } instead of failing
  if (!address) throw Object.assign(new Error(`no address for "${host}"`), { code: 'ENOTFOUND' });
  return address;
}
