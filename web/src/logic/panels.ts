/**
 * Dashboard extension panels (ui plugin). The daemon lists them at `GET /api/v1/system/ui`, a
 * route that exists only while ui.so is loaded; each entry names a panel this dashboard knows
 * how to draw. Without the route there are no panels and their API routes are never called.
 */
export const ROLES = ['viewer', 'operator', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export interface PanelInfo {
  id: string;
  title?: string;
  /** The least role that may open it (the daemon checks again on every call). */
  min_role?: Role;
}

export interface UiInfo {
  plugin_version?: string;
  features?: string[];
  panels?: PanelInfo[];
}

/** The panels the dashboard knows, with the role each needs by default. */
export const KNOWN_PANELS: Record<string, { title: string; min_role: Role }> = {
  tokens: { title: 'Tokens', min_role: 'admin' },
  audit: { title: 'Audit log', min_role: 'admin' },
  notify: { title: 'Notify', min_role: 'operator' },
};

export function roleAtLeast(role: Role | null, min: Role): boolean {
  // Open mode (no auth) has no role and may do everything.
  return role === null || ROLES.indexOf(role) >= ROLES.indexOf(min);
}

/** The panels to show a user with `role`: known ids only, each once, in the daemon's order. */
export function visiblePanels(info: UiInfo | null, role: Role | null): { id: string; title: string }[] {
  const out: { id: string; title: string }[] = [];
  for (const p of info?.panels ?? []) {
    const known = KNOWN_PANELS[p.id];
    if (!known || out.some((o) => o.id === p.id)) continue;
    if (!roleAtLeast(role, p.min_role && ROLES.includes(p.min_role) ? p.min_role : known.min_role)) continue;
    out.push({ id: p.id, title: p.title || known.title });
  }
  return out;
}

/** The role a session has: the status's `role` when given; the admin secret is an admin. */
export function roleOf(status: { auth_required?: boolean; role?: string; mode?: string } | null): Role | null {
  if (!status?.auth_required) return null;
  const r = status.role?.toLowerCase();
  if (r && (ROLES as readonly string[]).includes(r)) return r as Role;
  return status.mode === 'secret' ? 'admin' : 'viewer';
}
