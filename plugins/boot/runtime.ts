import type { LicenseClaims } from '../license/claims.js';
import type { PluginLibrary } from '../host/open-library.js';
import type { SecurityRuntime } from '../security/open-security.js';
import type { Mode } from './plan.js';
import type { UiPanel } from '../../api/routes/ui-extensions.js';

/** What start-up decided and loaded; the API reads it (license info, plugin list, auth). */
export interface PluginRuntime {
  mode: Mode;
  /** The verified license, or null (none configured, or it failed: see licenseProblem). */
  license: { claims: LicenseClaims; expired: boolean; source: string } | null;
  /** Why a configured key did not verify (svcd runs open); null otherwise. */
  licenseProblem: string | null;
  /** Loaded libraries in load order (security first). */
  libraries: PluginLibrary[];
  /** Libraries present but not loaded, and why. */
  skipped: { name: string; file: string; reason: string }[];
  /** The security plugin when loaded: it replaces core auth. */
  security: SecurityRuntime | null;
  /** The ui plugin when loaded: the dashboard's extension panels it brings (GET /api/v1/system/ui). */
  ui: { version: string; panels: UiPanel[] } | null;
  warnings: string[];
}

/** The runtime of a daemon without plugins (tests, and the default before boot). */
export function noPlugins(mode: Mode): PluginRuntime {
  return { mode, license: null, licenseProblem: null, libraries: [], skipped: [], security: null, ui: null, warnings: [] };
}
