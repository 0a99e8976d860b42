import { actionPermission, allows, type Permission } from '../../../state/auth/roles.js';
import type { ActionType } from '../api/types.js';
import type { Role } from './panels.js';

export type { Permission };

/**
 * Whether the session may do what needs `permission`, by the daemon's own table (state/auth/roles.ts,
 * docs/security.md): a control the role may not use is not shown, so that no button always
 * answers 403. Open mode (no role) may do everything. The daemon checks again on every call.
 */
export function may(role: Role | null, permission: Permission): boolean {
  return role === null || allows(role, permission);
}

/** The actions of `types` that the role may use, in their order. */
export function allowedActions(role: Role | null, types: readonly ActionType[]): ActionType[] {
  return types.filter((t) => may(role, actionPermission(t)));
}
