import { mkdir } from 'node:fs/promises';
import type { PluginLibrary } from '../host/open-library.js';
import { AuditLog } from './audit/audit-log.js';
import { SecurityNative } from './native.js';
import { TokenService } from './token-service.js';

/** The running security plugin: the Authenticator that replaces core auth, and the audit log. */
export interface SecurityRuntime {
  tokens: TokenService;
  audit: AuditLog;
}

/**
 * Starts the security plugin over its loaded library: reads `data/tokens.json` and
 * `data/auth_settings.json` (a corrupt file throws, refusing start) and opens the audit log.
 */
export async function openSecurity(lib: PluginLibrary, opts: { dataDir: string; authSecret: string; now: () => number }): Promise<{ runtime: SecurityRuntime; warnings: string[] }> {
  await mkdir(opts.dataDir, { recursive: true });
  const tokens = await TokenService.open({ native: new SecurityNative(lib), dataDir: opts.dataDir, authSecret: opts.authSecret, now: opts.now });
  const { log, warning } = await AuditLog.open(opts.dataDir, opts.now);
  return { runtime: { tokens, audit: log }, warnings: [...tokens.startWarnings, ...(warning ? [warning] : [])] };
}
