import Router from '@koa/router';

/** One dashboard extension panel (web/src/logic/panels.ts draws the ids it knows). */
export interface UiPanel {
  id: string;
  title: string;
  /** The least role that may open it; the routes it calls check the role again. */
  min_role: 'viewer' | 'operator' | 'admin';
  /** The license feature code (License info `features`) that unlocks it. */
  feature: string;
}

/** The panels of ui.so v1: token management and the audit log for admins, notify channels for operators. */
export const UI_PANELS: readonly UiPanel[] = [
  { id: 'tokens', title: 'Tokens', min_role: 'admin', feature: 'access_tokens' },
  { id: 'audit', title: 'Audit log', min_role: 'admin', feature: 'audit_log' },
  { id: 'notify', title: 'Notify', min_role: 'operator', feature: 'notify_channels' },
];

/** The panels a license unlocks: the ui grant (`dashboard_extensions`) and each panel's own feature. */
export function unlockedPanels(declared: readonly UiPanel[], features: readonly string[]): UiPanel[] {
  if (!features.includes('dashboard_extensions')) return [];
  return declared.filter((p) => features.includes(p.feature));
}

export interface UiInfoSource {
  /** ui.so's version (`svc_plugin_version`). */
  pluginVersion: string;
  /** License info `features`, read on every request (a reloaded license applies at once). */
  features(): readonly string[];
  /** The panels ui.so declares; UI_PANELS by default. */
  panels?: readonly UiPanel[];
}

/**
 * `GET /api/v1/system/ui`: which extension panels the dashboard may show. Register it only while
 * ui.so is loaded (without it the route answers 404 and the dashboard shows no panel and calls
 * none of their routes). Mounted under the v1 router like the other routers:
 * `if (plugins.ui) routers.push(uiRouter({ pluginVersion, features: () => license.features }))`.
 */
export function uiRouter(source: UiInfoSource): Router {
  const router = new Router();
  router.get('/system/ui', (ctx) => {
    const features = source.features();
    ctx.body = { plugin_version: source.pluginVersion, features, panels: unlockedPanels(source.panels ?? UI_PANELS, features) };
  });
  return router;
}
