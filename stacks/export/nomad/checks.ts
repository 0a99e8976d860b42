import type { HealthCheck, ProgramConfig } from '../../../state/program.js';
import { splitCommand } from '../../../state/command-line.js';
import type { ExportFinding } from '../types.js';
import { ns, type NomadService, type NomadTaskGroup } from './model.js';

/** Nomad service names: RFC 1123 labels (letters, digits, dashes). */
export function serviceName(program: string): string {
  return program.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 63) || 'svc';
}

const HEALTH_PORT = 'health';

/**
 * A health_check as a Nomad service with one check: http and tcp as Nomad-native checks (a
 * reserved host port labelled `health`, the service address from the URL/host), exec as a Consul
 * script check (Nomad's own provider runs only http and tcp). `restart_on_failure` becomes
 * check_restart (limit = failure_threshold, grace = start_period_secs).
 */
export function healthService(config: ProgramConfig, report: (f: ExportFinding) => void): { service: NomadService; network?: NonNullable<NomadTaskGroup['Networks']>[number] } | null {
  const hc = config.health_check;
  if (!hc) return null;
  const note = (field: string, kind: ExportFinding['kind'], message: string) => report({ program: config.name, field: `health_check.${field}`, kind, message });
  if (hc.enabled === false) {
    note('enabled', 'unexpressible', 'a disabled check is not written (Nomad has no disabled checks)');
    return null;
  }
  const timing = {
    Interval: ns(hc.interval_secs ?? 10),
    Timeout: ns(hc.timeout_secs ?? 5),
    ...(hc.restart_on_failure ? { CheckRestart: { Limit: hc.failure_threshold ?? 3, Grace: ns(hc.start_period_secs ?? 0) || ns(1), IgnoreWarnings: false } } : {}),
  };
  const name = serviceName(config.name);
  if (hc.type === 'exec') {
    const words = hc.args ? [hc.command ?? '', ...hc.args] : splitCommand(hc.command ?? '');
    const [command = '', ...args] = words;
    return {
      service: {
        Name: name,
        Provider: 'consul',
        Checks: [{ Name: `${name}-health`, Type: 'script', Command: command, ...(args.length > 0 ? { Args: args } : {}), ...timing, ...thresholds(hc) }],
      },
    };
  }
  const target = endpoint(hc);
  if (!target) {
    note('url', 'unexpressible', `'${hc.url}' is not a URL Nomad can check`);
    return null;
  }
  if (!hc.restart_on_failure && hc.failure_threshold !== undefined) note('failure_threshold', 'unexpressible', 'Nomad-native checks have no failure threshold (only check_restart.limit, with restart_on_failure)');
  if (hc.success_threshold !== undefined) note('success_threshold', 'unexpressible', 'Nomad-native checks have no success threshold');
  if (hc.start_period_secs !== undefined && !hc.restart_on_failure) note('start_period_secs', 'unexpressible', 'a grace period exists only for check_restart (restart_on_failure)');
  return {
    service: {
      Name: name,
      Provider: 'nomad',
      PortLabel: HEALTH_PORT,
      Address: target.host,
      Checks: [
        {
          Name: `${name}-health`,
          Type: hc.type,
          ...(hc.type === 'http' ? { Path: target.path, Protocol: target.protocol } : {}),
          PortLabel: HEALTH_PORT,
          ...timing,
        },
      ],
    },
    network: { ReservedPorts: [{ Label: HEALTH_PORT, Value: target.port }] },
  };
}

function thresholds(hc: HealthCheck): { SuccessBeforePassing?: number; FailuresBeforeCritical?: number } {
  return {
    ...(hc.success_threshold !== undefined ? { SuccessBeforePassing: hc.success_threshold } : {}),
    ...(hc.failure_threshold !== undefined ? { FailuresBeforeCritical: hc.failure_threshold } : {}),
  };
}

function endpoint(hc: HealthCheck): { host: string; port: number; path: string; protocol: string } | null {
  if (hc.type === 'tcp') return { host: hc.host ?? '127.0.0.1', port: hc.port ?? 0, path: '/', protocol: 'tcp' };
  try {
    const url = new URL(hc.url ?? '');
    const protocol = url.protocol.replace(':', '');
    const port = url.port ? Number(url.port) : protocol === 'https' ? 443 : 80;
    return { host: url.hostname.replace(/^\[|\]$/g, ''), port, path: `${url.pathname}${url.search}`, protocol };
  } catch {
    return null;
  }
}
