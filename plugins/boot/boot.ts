import type { SvcConfig } from '../../conf/keys.js';
import { isLoopbackHost } from '../../state/loopback.js';
import { SECURITY, UI, pluginSpec } from '../host/catalog.js';
import { uiPanelsOf } from '../ui/native.js';
import { discoverPlugins, pluginDir } from '../host/discover.js';
import { openPluginLibrary, type PluginLibrary } from '../host/open-library.js';
import { librarySafety } from '../host/file-safety.js';
import { PluginError } from '../host/plugin-error.js';
import { probePlugins } from '../host/probe.js';
import { LicenseError } from '../license/license-error.js';
import { loadTrustedKeys, trustedKeysPath } from '../license/trusted-keys.js';
import { verifyLicense } from '../license/verify.js';
import { securityLeftBehind } from '../security/left-behind.js';
import { openSecurity } from '../security/open-security.js';
import { planStartup, type LicenseStatus } from './plan.js';
import { StartupRefusal } from './refusal.js';
import type { PluginRuntime } from './runtime.js';

export interface BootInput {
  config: SvcConfig;
  env: NodeJS.ProcessEnv;
  version: string;
  /** Unix milliseconds (the injected clock). */
  now: () => number;
}

/**
 * Start-up of licenses and plugins, in the spec's order: verify the license, decide (plan.ts),
 * load and start security, then the other granted plugins. Throws a StartupRefusal whose
 * message is the one line svcd prints.
 */
export async function bootPlugins(input: BootInput): Promise<PluginRuntime> {
  const { config, env } = input;
  const license = checkLicense(input);
  const dir = pluginDir(config.root);
  const plan = planStartup({
    license,
    strict: config.license.strict || env.SVC_LICENSE_STRICT === '1',
    authSecret: config.server.auth_secret !== '',
    networkBind: !config.server.socket_only && !isLoopbackHost(config.server.host),
    pluginDir: dir,
    present: presentPlugins(dir),
    now: input.now(),
  });
  if ('refuse' in plan) throw new StartupRefusal(plan.refuse);

  const ownerWarnings: string[] = [];
  const libraries = loadLibraries(plan.load.map((p) => p.file), ownerWarnings);
  const runtime: PluginRuntime = {
    mode: plan.mode,
    license: license.kind === 'valid' ? { claims: license.claims, expired: license.expired, source: license.source } : null,
    licenseProblem: license.kind === 'invalid' ? license.reason : null,
    libraries,
    skipped: plan.skipped,
    security: null,
    ui: null,
    warnings: [...plan.warnings, ...ownerWarnings],
  };
  const security = libraries.find((l) => l.name === SECURITY);
  if (security) {
    try {
      const opened = await openSecurity(security, { dataDir: config.storage.data_dir, authSecret: config.server.auth_secret, now: input.now });
      runtime.security = opened.runtime;
      runtime.warnings.push(...opened.warnings);
    } catch (err) {
      throw new StartupRefusal(`security plugin: ${(err as Error).message}`);
    }
  } else {
    runtime.warnings.push(...(await securityLeftBehind(config.storage.data_dir, config.server.auth_secret !== '')));
  }
  const ui = libraries.find((l) => l.name === UI);
  if (ui) {
    try {
      runtime.ui = { version: ui.version, panels: uiPanelsOf(ui) };
    } catch (err) {
      throw new StartupRefusal(`plugin library refused: ${ui.file}: ${(err as Error).message}`);
    }
  }
  return runtime;
}

/** The libraries in the plugin directory; a directory that cannot be read refuses the start. */
function presentPlugins(dir: string) {
  try {
    return discoverPlugins(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOTDIR' ? 'it is not a directory' : code === 'EACCES' ? 'permission denied' : (err as Error).message;
    throw new StartupRefusal(`the plugin directory ${dir} cannot be read: ${why}`);
  }
}

function checkLicense({ config, env, version, now }: BootInput): LicenseStatus {
  const fromEnv = env.SVC_LICENSE !== undefined;
  const key = (fromEnv ? env.SVC_LICENSE : config.license.key) ?? '';
  if (key.trim() === '') return { kind: 'none' };
  const source = fromEnv ? 'SVC_LICENSE' : '[license].key';
  let trusted;
  try {
    trusted = loadTrustedKeys(trustedKeysPath(config.root, config.license.trusted_keys));
  } catch (err) {
    throw new StartupRefusal((err as Error).message);
  }
  try {
    const verified = verifyLicense(key, { trusted, now: now(), version, retainGrantsAfterExpiry: config.license.retain_grants_after_expiry });
    return { kind: 'valid', claims: verified.claims, expired: verified.expired, source };
  } catch (err) {
    if (err instanceof LicenseError) return { kind: 'invalid', reason: `${source}: ${err.message}`, source };
    throw err;
  }
}

/**
 * Refuses a library any local user could replace, probes every library in a child process (a
 * crash there names the file), then loads each in svcd in order. Security failing is a licensed requirement (2, or 4 for `authenticate`).
 */
function loadLibraries(files: string[], warnings: string[]): PluginLibrary[] {
  if (files.length === 0) return [];
  for (const file of files) {
    const safety = librarySafety(file);
    if (safety.refuse) refuseLibrary(file, safety.refuse);
    if (safety.warn) warnings.push(`plugin library ${safety.warn}`);
  }
  let results;
  try {
    results = probePlugins(files);
  } catch (err) {
    throw new StartupRefusal(`plugin libraries could not be checked: ${(err as Error).message}`);
  }
  const probed = new Map(results.map((r) => [r.file, r]));
  return files.map((file) => {
    const result = probed.get(file);
    if (!result) return refuseLibrary(file, `${file}: the probe did not report on it`);
    if (!result.ok) return refuseLibrary(file, result.message);
    const spec = pluginSpec(pluginName(file));
    if (!spec) return refuseLibrary(file, `${file}: not a plugin this svcd knows`);
    try {
      return openPluginLibrary(file, spec);
    } catch (err) {
      if (err instanceof PluginError) return refuseLibrary(file, err.message);
      throw err;
    }
  });
}

const pluginName = (file: string) => file.slice(file.lastIndexOf('/') + 1).replace(/\.[^.]+$/, '');

/** Refuses the start for a library that cannot be used: for security.so, as licensed requirement 2 or 4. */
function refuseLibrary(file: string, message: string): never {
  if (pluginName(file) !== SECURITY) throw new StartupRefusal(`plugin library refused: ${message}`);
  const rule = /missing export authenticate\b/.test(message) ? 4 : 2;
  const what = rule === 4 ? 'the security plugin must export authenticate (the HTTP auth middleware)' : 'the security plugin must load';
  throw new StartupRefusal(`licensed startup requirement ${rule}: ${what}: ${message}`);
}
