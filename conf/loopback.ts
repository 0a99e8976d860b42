import { BlockList, isIP } from 'node:net';
import { lookup } from 'node:dns/promises';

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');
LOOPBACK.addSubnet('::ffff:127.0.0.0', 104, 'ipv6'); // IPv4-mapped 127/8

/** True for an IP literal in 127.0.0.0/8, ::1 or ::ffff:127.0.0.0/104; a name is never loopback by its spelling. */
export function isLoopbackAddress(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 0) return false;
  return LOOPBACK.check(bare, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * The address svcd will bind for `[server] host`: an IP literal as is, a name resolved the way
 * `listen` resolves it (the first address). svcd then binds this address, so the loopback check
 * and the bind cannot disagree (`127.example.com` is whatever DNS says, not loopback by prefix).
 */
export async function resolveBindHost(host: string): Promise<string> {
  const bare = host.replace(/^\[|\]$/g, '');
  if (isIP(bare) !== 0) return bare;
  const { address } = await lookup(bare);
  return address;
}
