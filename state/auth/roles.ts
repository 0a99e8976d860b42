import type { Role } from './principal.js';

/**
 * What a route needs (spec, Access Tokens and roles). `public` needs no credential; every other
 * permission needs a valid one, held by the role below or any higher role.
 */
export type Permission =
  | 'public'
  | 'session' // login, logout: any valid credential
  | 'read' // list, detail, logs, events, stack, stats, license, metrics, the log stream
  | 'program.create'
  | 'program.control' // start, stop, restart, signal (one program or a batch)
  | 'reaction.test' // run an event reaction now with a synthetic event
  | 'program.update'
  | 'program.remove'
  | 'stack.apply'
  | 'system.shutdown'
  | 'token.self' // list and renew one's own token
  | 'token.manage' // create, revoke, list all, renew any
  | 'secret.disable'
  | 'audit.read'
  | 'config.plaintext' // see env values and URL credentials unredacted
  | 'notify.manage' // replace and test notify channels (notify plugin)
  | 'unlisted'; // a path or method missing from the route table: admin only, so a forgotten entry fails closed

export const MINIMUM_ROLE: Record<Exclude<Permission, 'public'>, Role> = {
  session: 'viewer',
  read: 'viewer',
  'token.self': 'viewer',
  'program.create': 'operator',
  'program.control': 'operator',
  'notify.manage': 'operator',
  'reaction.test': 'operator',
  'program.update': 'admin',
  'program.remove': 'admin',
  'stack.apply': 'admin',
  'system.shutdown': 'admin',
  'token.manage': 'admin',
  'secret.disable': 'admin',
  'audit.read': 'admin',
  'config.plaintext': 'admin',
  unlisted: 'admin',
};

const RANK: Record<Role, number> = { viewer: 1, operator: 2, admin: 3 };

export function allows(role: Role, permission: Permission): boolean {
  return permission === 'public' || RANK[role] >= RANK[MINIMUM_ROLE[permission]];
}

/** What a program action (a batch action type) needs: Remove is administration, the others are control. */
export function actionPermission(type: string): 'program.remove' | 'program.control' {
  return type === 'Remove' ? 'program.remove' : 'program.control';
}
