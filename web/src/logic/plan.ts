/** The apply report of `PUT /api/v1/stack` (`created web`, `updated api (restart)`, ...) as groups. */

export const PLAN_ACTIONS = ['created', 'updated', 'pruned', 'unchanged'] as const;
export type PlanAction = (typeof PLAN_ACTIONS)[number];

export interface PlanItem {
  name: string;
  /** updated only: process fields changed on a running program, so it restarts. */
  restart: boolean;
}

export interface Plan {
  groups: Record<PlanAction, PlanItem[]>;
  /** Lines the dashboard does not know (a newer daemon), shown as they are. */
  other: string[];
  /** Whether applying would write anything. */
  changes: number;
}

const LINE = /^(created|updated|pruned|unchanged) (.+?)( \(restart\))?$/;

export function parsePlan(lines: readonly string[]): Plan {
  const groups: Record<PlanAction, PlanItem[]> = { created: [], updated: [], pruned: [], unchanged: [] };
  const other: string[] = [];
  for (const line of lines) {
    const m = LINE.exec(line.trim());
    if (!m) {
      if (line.trim()) other.push(line);
      continue;
    }
    groups[m[1] as PlanAction].push({ name: m[2], restart: m[3] !== undefined });
  }
  return { groups, other, changes: groups.created.length + groups.updated.length + groups.pruned.length };
}

/** `2 to create, 1 to update (1 restarts), 1 to prune, 3 unchanged`, or `no changes`. */
export function planSummary(plan: Plan, done = false): string {
  const g = plan.groups;
  const restarts = g.updated.filter((u) => u.restart).length;
  const verb = (n: number, what: string, past: string) => (done ? `${n} ${past}` : `${n} to ${what}`);
  const parts: string[] = [];
  if (g.created.length) parts.push(verb(g.created.length, 'create', 'created'));
  if (g.updated.length) parts.push(`${verb(g.updated.length, 'update', 'updated')}${restarts ? ` (${restarts} restart${restarts > 1 ? 's' : ''})` : ''}`);
  if (g.pruned.length) parts.push(verb(g.pruned.length, 'prune', 'pruned'));
  if (g.unchanged.length) parts.push(`${g.unchanged.length} unchanged`);
  return plan.changes === 0 ? (parts.length ? `no changes (${parts.join(', ')})` : 'no changes') : parts.join(', ');
}
