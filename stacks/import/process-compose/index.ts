import { basename, dirname, join, resolve } from 'node:path';
import { parse as parseDotenv } from 'dotenv';
import { invalid } from '../../../state/errors.js';
import type { ProgramConfig } from '../../../state/program.js';
import { parseDocumentText } from '../../document.js';
import { dotenvLineOf, lineOfFromLocator } from '../common/locate.js';
import { NameRegistry, toProgramName } from '../common/names.js';
import { Findings } from '../report.js';
import type { ImportPorts, ImportResult } from '../types.js';
import { expandVariables } from './expand.js';
import { environmentList, mapProcess } from './map-process.js';

/** Top-level keys and what happens to them. */
const TOP_MAPPED = new Set(['version', 'processes', 'environment', 'shell', 'vars', 'disable_env_expansion']);
const TOP_UNMAPPED: Record<string, string> = {
  log_location: 'svc keeps each program’s output in its own files',
  log_level: 'svcd’s own log settings are in conf/svc.toml',
  log_length: 'svc keeps logs on disk; the TUI shows what fits',
  log_configuration: 'svc writes program output as it is (no log format or rotation settings per file)',
  is_strict: 'svc always refuses unknown fields in its own stacks',
  ordered_shutdown: 'svc always stops dependants first, then by priority',
  env_cmds: 'svc does not run commands to compute environment variables',
  is_tui_disabled: 'svcd has no TUI of its own; svc ui is a client',
  extends: 'svc import reads one file; import the extended file too, or merge them first',
};

/** The files process-compose finds in its working directory when started without -f, and the override it merges over them. */
const DISCOVERED = ['compose.yml', 'compose.yaml', 'process-compose.yml', 'process-compose.yaml'];
const OVERRIDES = ['compose.override.yml', 'compose.override.yaml', 'process-compose.override.yml', 'process-compose.override.yaml'];

/**
 * Imports a process-compose file: every process (with replicas), its command through the
 * configured shell (default `bash -c`), environment, depends_on conditions, readiness and
 * liveness probes, availability and shutdown. `$VAR` in values svc stores as they are is
 * expanded now, from the environment and a `.env` next to the file, as process-compose does; that
 * `.env` is also every process's `env_file`, since process-compose gives its variables to each
 * process (unless `is_dotenv_disabled`), where commands expand them.
 */
export function importProcessCompose(path: string, label: string, ports: ImportPorts): ImportResult {
  const absolute = resolve(path);
  const dir = dirname(absolute);
  const doc = parseDocumentText(ports.readText(absolute), 'yaml', label);
  const lineOf = lineOfFromLocator(doc.locate);
  const top = doc.value as Record<string, unknown> | null;
  if (typeof top !== 'object' || top === null || typeof top.processes !== 'object' || top.processes === null) {
    throw invalid(`${label}:1: expected a mapping with \`processes\``);
  }
  const processes = top.processes as Record<string, unknown>;
  const findings = new Findings();
  const dotenvPath = join(dir, '.env');
  const hasDotenv = ports.exists(dotenvPath);
  const dotenvText = hasDotenv ? ports.readText(dotenvPath) : '';
  const dotenv = parseDotenv(dotenvText);
  const env = { ...dotenv, ...ports.env };
  const expandOn = top.disable_env_expansion !== true;
  const shellConf = (top.shell ?? {}) as Record<string, unknown>;
  const shell = [typeof shellConf.shell_command === 'string' ? shellConf.shell_command : 'bash', typeof shellConf.shell_argument === 'string' ? shellConf.shell_argument : '-c'];
  for (const key of Object.keys(top)) {
    if (TOP_MAPPED.has(key)) continue;
    findings.unmapped(label, lineOf([key]), null, key, TOP_UNMAPPED[key] ?? 'not a process-compose key svc knows');
  }

  // Started without -f, process-compose merges an override file over the one it found; svc import reads one file.
  const override = DISCOVERED.includes(basename(absolute)) ? OVERRIDES.find((name) => ports.exists(join(dir, name))) : undefined;
  if (override) {
    findings.unmapped(join(dirname(label), override), 1, null, override, `process-compose merges this file over ${basename(absolute)} when it is started without -f; svc import reads only ${basename(absolute)}: merge the override into it first, or import a file that holds both`);
  }

  const registry = new NameRegistry();
  const namesOf = new Map<string, string[]>();
  for (const [key, proc] of Object.entries(processes)) {
    const base = toProgramName(key);
    if (!base) throw invalid(`${label}:${lineOf(['processes', key])}: processes.${key}: cannot be made a valid svc name`);
    if (base !== key) findings.approximated(label, lineOf(['processes', key]), base, 'name', `'${key}' is not a valid svc name; renamed to '${base}'`);
    const replicas = replicaCount((proc as { replicas?: unknown } | null)?.replicas, (message) => {
      throw invalid(`${label}:${lineOf(['processes', key, 'replicas'])}: processes.${key}.replicas: ${message}`);
    });
    namesOf.set(key, replicas > 1 ? Array.from({ length: replicas }, (_, i) => registry.claim(`${base.slice(0, 60)}-${i}`)) : [registry.claim(base)]);
  }

  const textFor = (procPath: (string | number)[], program: string | null) => (value: string, field: string) => {
    if (!expandOn) return value;
    const { value: out, used } = expandVariables(value, env);
    if (used.length > 0) {
      const pc = used.some((u) => u.startsWith('PC_')) ? '; process-compose sets PC_PROC_NAME and PC_REPLICA_NUM only in each process’s environment, after that: $$PC_… keeps the name as written' : '';
      findings.approximated(label, lineOf([...procPath, field.split('.')[0] ?? field]), program, field, `expanded $${used.join(', $')} from the environment of svc import${hasDotenv ? ' and .env' : ''} (process-compose expands them when it loads the file${pc})`);
    }
    return out;
  };
  const globalFail = (field: string, message: string): never => {
    throw invalid(`${label}:${lineOf([field])}: ${field}: ${message}`);
  };
  const globalEnv = environmentList(top.environment, 'environment', { text: textFor([], null), fail: globalFail });
  const services: ProgramConfig[] = [];
  for (const [key, proc] of Object.entries(processes)) {
    const procPath = ['processes', key];
    const names = namesOf.get(key) ?? [];
    const program = names.length > 1 ? key : (names[0] ?? key);
    if (typeof proc !== 'object' || proc === null) throw invalid(`${label}:${lineOf(procPath)}: processes.${key}: must be a mapping`);
    const at = (field: string) => lineOf([...procPath, ...field.split('.')]);
    services.push(
      ...mapProcess(proc as Record<string, unknown>, {
        key,
        names,
        namesOf,
        processes,
        dir,
        shell,
        globalEnv,
        dotenv: hasDotenv ? dotenvPath : null,
        vars: (top.vars as Record<string, unknown> | undefined) ?? {},
        expandOn,
        text: textFor(procPath, program),
        report: (field, kind, message) => (kind === 'unmapped' ? findings.unmapped(label, at(field), program, field, message) : findings.approximated(label, at(field), program, field, message)),
        fail: (field, message) => {
          throw invalid(`${label}:${at(field)}: processes.${key}.${field}: ${message}`);
        },
      }),
    );
  }
  if (services.length === 0) throw invalid(`${label}: no processes to import`);
  const shadowed = Object.keys(dotenv).filter((k) => ports.env[k] !== undefined);
  if (shadowed.length > 0 && services.some((s) => s.env_file !== undefined)) {
    findings.approximated(join(dirname(label), '.env'), dotenvLineOf(dotenvText, shadowed[0]), null, shadowed.join(', '), 'set in the environment of svc import too: process-compose let its own environment win over .env, svc lets env_file win over svcd’s environment');
  }
  return { format: 'process-compose', services, report: findings.entries };
}

/** `replicas`: absent is 1; process-compose refuses anything but a whole number ("3" too), so does the import. */
function replicaCount(value: unknown, fail: (message: string) => never): number {
  if (value === undefined) return 1;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) return fail(`must be a whole number of 0 or more, not ${JSON.stringify(value)}`);
  return Math.max(1, value);
}
