import type { UiPanel } from '../../api/routes/ui-extensions.js';
import type { PluginLibrary } from '../host/open-library.js';
import { ROLES } from '../../state/auth/principal.js';

/** Room for the panel list; ui.so answers with the size it needs when this is short. */
const FIRST_CAP = 4096;
/** A plugin that asks for more than this is refused rather than trusted. */
const MAX_CAP = 1 << 20;

/**
 * The panels ui.so brings (`svc_ui_panels`), checked: a list of `{id, title, min_role,
 * feature}` with known roles. Throws with what is wrong, which refuses svcd's start as any
 * other unusable plugin does.
 */
export function uiPanelsOf(lib: PluginLibrary): UiPanel[] {
  const call = lib.functions.svc_ui_panels;
  if (!call) throw new TypeError('ui plugin: svc_ui_panels is not bound (plugins/host/catalog.ts)');
  let buf = Buffer.alloc(FIRST_CAP);
  let n: number = call(buf, buf.length);
  if (n < 0 && -n <= MAX_CAP) {
    buf = Buffer.alloc(-n);
    n = call(buf, buf.length);
  }
  if (n < 0 || n > buf.length) throw new Error(`ui plugin: svc_ui_panels answered ${n} (at most ${MAX_CAP} bytes are taken)`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(buf.subarray(0, n).toString('utf8'));
  } catch (err) {
    throw new Error(`ui plugin: svc_ui_panels is not JSON: ${(err as Error).message}`);
  }
  if (!Array.isArray(parsed)) throw new Error('ui plugin: svc_ui_panels must be a JSON array of panels');
  return parsed.map((p: unknown, i) => {
    const panel = p as Partial<Record<keyof UiPanel, unknown>> | null;
    const text = (v: unknown) => typeof v === 'string' && v.length > 0 && v.length <= 200;
    if (!panel || !text(panel.id) || !text(panel.title) || !text(panel.feature) || !ROLES.includes(panel.min_role as UiPanel['min_role'])) {
      throw new Error(`ui plugin: panel ${i} must be {id, title, min_role: viewer|operator|admin, feature}, got ${JSON.stringify(p).slice(0, 200)}`);
    }
    return { id: panel.id as string, title: panel.title as string, min_role: panel.min_role as UiPanel['min_role'], feature: panel.feature as string };
  });
}
