import Router from '@koa/router';
import type { PluginRuntime } from '../../plugins/boot/runtime.js';
import { featuresOf } from '../../plugins/license/features.js';
import { notFound } from '../../state/errors.js';

/**
 * `GET /system/license` (spec: License info) and `GET /system/plugins` (what is loaded).
 * `now` is Unix milliseconds: a license that expires while svcd runs says so from that moment.
 */
export function licenseRouter(plugins: PluginRuntime, now: () => number): Router {
  const router = new Router();
  const versions = () => Object.fromEntries(plugins.libraries.map((l) => [l.name, l.version]));

  router.get('/system/license', (ctx) => {
    const license = plugins.license;
    if (!license) {
      throw notFound(plugins.licenseProblem ? `no valid license: ${plugins.licenseProblem}` : 'no license is configured ([license].key or SVC_LICENSE)');
    }
    const c = license.claims;
    ctx.body = {
      issued_to: c.issued_to,
      issued_at: c.issued_at,
      major_version: c.major_version,
      grants: c.grants,
      ...(c.expires_at !== undefined ? { expires_at: c.expires_at } : {}),
      license_id: c.license_id,
      features: featuresOf(c.grants),
      plugin_versions: versions(),
      // svc additions: the signed version range, and whether expires_at has passed (at start,
      // with retain_grants_after_expiry; or since, while svcd runs on the plugins it loaded).
      ...(c.min_version ? { min_version: c.min_version } : {}),
      ...(c.max_version ? { max_version: c.max_version } : {}),
      expired: license.expired || (c.expires_at !== undefined && c.expires_at * 1000 <= now()),
    };
  });

  router.get('/system/plugins', (ctx) => {
    ctx.body = {
      mode: plugins.mode,
      loaded: plugins.libraries.map((l) => ({ name: l.name, version: l.version, file: l.file })),
      skipped: plugins.skipped,
    };
  });
  return router;
}
