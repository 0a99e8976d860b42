/**
 * UI feature codes unlocked by each grant (License info `features`): what a dashboard may show.
 * Unknown grants unlock nothing.
 */
const FEATURES: Record<string, string[]> = {
  security: ['access_tokens', 'rbac', 'audit_log'],
  notify: ['notify_channels'],
  isolation: ['resource_limits'],
  ui: ['dashboard_extensions'],
};

/** The grants this svc knows: one per plugin (plugins/host/catalog.ts). */
export const KNOWN_GRANTS: readonly string[] = Object.keys(FEATURES);

export function featuresOf(grants: string[]): string[] {
  return [...new Set(grants.flatMap((g) => (Object.hasOwn(FEATURES, g) ? (FEATURES[g] ?? []) : [])))].sort();
}
