import { join } from 'node:path';
import { readSettings } from './settings-file.js';
import { readTokens } from './token-file.js';

/**
 * What the security plugin left in `data/` that a start without it does not honour: a disabled
 * admin secret is accepted again by core auth, and Access Tokens are refused. Both are said at
 * start-up, as an operator who removed the license may have relied on either. Unreadable files
 * say nothing here: the plugin refuses them when it is loaded again.
 */
export async function securityLeftBehind(dataDir: string, authSecretSet: boolean): Promise<string[]> {
  const warnings: string[] = [];
  const settingsFile = join(dataDir, 'auth_settings.json');
  const settings = await readSettings(settingsFile).catch(() => null);
  if (authSecretSet && settings?.secret_disabled) {
    warnings.push(`the admin secret was disabled (${settingsFile}) but the security plugin is not loaded: [server].auth_secret is accepted again; change it if it was ever shared`);
  }
  const tokensFile = join(dataDir, 'tokens.json');
  const tokens = await readTokens(tokensFile).catch(() => []);
  if (tokens.length > 0) {
    warnings.push(`${tokens.length} Access Token${tokens.length === 1 ? '' : 's'} in ${tokensFile} ${tokens.length === 1 ? 'is' : 'are'} refused: the security plugin is not loaded`);
  }
  return warnings;
}
