import { readdirSync } from 'node:fs';
import { readStat, statField } from './proc-fs.js';

/**
 * The live processes of the session led by `sid` (svc starts every program in its own session),
 * the leader first. Used to move a running program into a cgroup when limits are added to it.
 */
export function sessionMembers(sid: number): number[] {
  const members: number[] = [];
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid <= 0) continue;
    const fields = readStat(pid);
    if (fields && fields[0] !== 'Z' && statField(fields, 6) === sid) members.push(pid);
  }
  return members.sort((a, b) => (a === sid ? -1 : b === sid ? 1 : a - b));
}
