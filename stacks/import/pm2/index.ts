import { dirname, resolve } from 'node:path';
import { invalid } from '../../../state/errors.js';
import type { ProgramConfig } from '../../../state/program.js';
import { NameRegistry } from '../common/names.js';
import { Findings } from '../report.js';
import type { ImportOptions, ImportPorts, ImportResult } from '../types.js';
import { appsFromDump, dumpKey } from './dump.js';
import { loadPm2 } from './load.js';
import { mapPm2App } from './map-app.js';

/**
 * Imports a PM2 ecosystem file (`.js`, `.cjs`, `.json`, `.yaml`) or dump (`dump.pm2`). Relative
 * paths resolve from the file's folder, as PM2 resolves them; `label` names the file in messages.
 */
export function importPm2(path: string, label: string, ports: ImportPorts, opts: ImportOptions = {}): ImportResult {
  const absolute = resolve(path);
  const text = ports.readText(absolute);
  const loaded = loadPm2(text, absolute, label, ports.env);
  const findings = new Findings();
  const names = new NameRegistry();
  const services: ProgramConfig[] = [];
  for (const d of loaded.dropped) {
    findings.unmapped(label, loaded.lineOf(d.path), null, d.path.join('.'), `a ${d.type} is not configuration svc can store`);
  }
  for (const [key, value] of Object.entries(loaded.extra)) {
    const why = key === 'deploy' ? 'svc does not deploy code (pm2 deploy)' : 'not a PM2 ecosystem key svc knows';
    if (value !== undefined) findings.unmapped(label, loaded.lineOf([key]), null, key, why);
  }
  const apps =
    loaded.kind === 'dump'
      ? appsFromDump(loaded.apps).map((d) => ({ app: d.app, index: d.index, dump: d }))
      : loaded.apps.map((app, index) => ({ app: app as Record<string, unknown>, index, dump: null }));
  if (opts.pm2Env && !apps.some(({ app }) => typeof app === 'object' && app !== null && `env_${opts.pm2Env}` in app)) {
    throw invalid(`${label}: --env ${opts.pm2Env}: no app has env_${opts.pm2Env}`);
  }
  for (const { app, index, dump } of apps) {
    const appPath = loaded.appPath(index);
    const lineOf = (key: string) => loaded.lineOf([...appPath, dump ? dumpKey(key) : key]);
    if (typeof app !== 'object' || app === null || Array.isArray(app)) throw invalid(`${label}:${loaded.lineOf(appPath)}: apps[${index}]: must be an object`);
    const name = typeof app.name === 'string' ? app.name : undefined;
    const mapped = mapPm2App(app, {
      file: label,
      dir: dirname(absolute),
      label: `apps[${index}]${name ? ` (name=${name})` : ''}`,
      lineOf,
      findings,
      names,
      envName: opts.pm2Env,
      exists: ports.exists,
      dump: dump !== null,
    });
    if (dump) {
      const program = mapped.length > 1 ? String(app.name) : (mapped[0]?.name ?? null);
      if (dump.runtime.length > 0) findings.unmapped(label, lineOf('status'), program, 'runtime state', `PM2's record of the running process, not configuration: ${dump.runtime.join(', ')}`);
      if (dump.pm2Variables.length > 0) findings.unmapped(label, lineOf('env'), program, 'env', `PM2's own variables, set by PM2 for each process: ${dump.pm2Variables.join(', ')}`);
      findings.approximated(label, lineOf('env'), program, 'env', 'a dump keeps the whole environment PM2 was started with (PATH, HOME, ...): imported as it is; remove what svcd should provide');
    }
    services.push(...mapped);
  }
  if (services.length === 0) throw invalid(`${label}: no apps to import`);
  return { format: 'pm2', services, report: findings.entries };
}
