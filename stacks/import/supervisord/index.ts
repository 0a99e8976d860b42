import { isAbsolute } from 'node:path';
import { invalid } from '../../../state/errors.js';
import type { ProgramConfig } from '../../../state/program.js';
import { NameRegistry } from '../common/names.js';
import { Findings } from '../report.js';
import type { ImportPorts, ImportResult } from '../types.js';
import { parseEnvironment } from './environment.js';
import { envExpansions, expand, type Expansions } from './expand.js';
import type { IniSection } from './ini.js';
import { loadSupervisord } from './load.js';
import { mapProgram } from './map-program.js';

/** Sections that configure supervisord itself (svcd has conf/svc.toml), reported once each. */
const DAEMON_SECTIONS = /^(supervisord|supervisorctl|unix_http_server|inet_http_server|rpcinterface:.*|ctlplugin:.*)$/;

/**
 * Imports a supervisord configuration: `[program:x]` sections (with `numprocs`), `[group:x]`
 * membership (svc `group_name`), `[include] files`, and `[supervisord] environment`, which every
 * program inherits. Every other section and option is reported with its file and line.
 */
export function importSupervisord(path: string, label: string, ports: ImportPorts): ImportResult {
  const { sections, dirs, unmatched } = loadSupervisord(path, label, ports);
  const findings = new Findings();
  for (const u of unmatched) {
    findings.unmapped(u.file, u.line, null, '[include] files', `no file matches '${u.pattern}'${isAbsolute(u.pattern) ? '' : ` (relative to ${u.dir})`}: nothing is included from it (supervisord warns and goes on)`);
  }
  const names = new NameRegistry();
  const groups = groupMembership(sections);
  const main = sections.find((s) => s.name === 'supervisord');
  const globalEnv = main ? daemonEnvironment(main, dirs.get(main.file) ?? '/', ports.env, findings) : {};
  const services: ProgramConfig[] = [];
  for (const section of sections) {
    const [kind, ...rest] = section.name.split(':');
    const name = rest.join(':');
    if (kind === 'program' && name) {
      services.push(
        ...mapProgram({ section, programName: name, groupName: groups.get(name) ?? null, here: dirs.get(section.file) ?? '/', env: ports.env, hostname: ports.hostname, globalEnv, findings, names }),
      );
    } else if (kind === 'group' && name) {
      for (const [key, option] of section.options) {
        if (key === 'programs') continue;
        const why = key === 'priority' ? 'svc orders starts by each program’s own priority, not by group' : 'not a supervisord group option svc knows';
        findings.unmapped(option.file, option.line, null, `[${section.name}] ${key}`, why);
      }
    } else if (section.name === 'include') {
      for (const [key, option] of section.options) if (key !== 'files') findings.unmapped(option.file, option.line, null, `[include] ${key}`, 'not an include option');
    } else if (DAEMON_SECTIONS.test(section.name)) {
      const keys = [...section.options.keys()].filter((k) => !(section.name === 'supervisord' && k === 'environment'));
      if (keys.length > 0 || section.name !== 'supervisord') {
        findings.unmapped(section.file, section.line, null, `[${section.name}]`, `supervisord’s own settings (svcd is configured in conf/svc.toml)${keys.length > 0 ? `: ${keys.join(', ')}` : ''}`);
      }
    } else if (kind === 'eventlistener') {
      findings.unmapped(section.file, section.line, null, `[${section.name}]`, 'svc has no event listener protocol; event reactions and webhooks are configured in svcd (docs/events.md)');
    } else if (kind === 'fcgi-program') {
      findings.unmapped(section.file, section.line, null, `[${section.name}]`, 'svc does not hold FastCGI sockets for programs');
    } else {
      findings.unmapped(section.file, section.line, null, `[${section.name}]`, 'not a supervisord section svc knows');
    }
  }
  if (services.length === 0) throw invalid(`${label}: no [program:x] sections to import`);
  return { format: 'supervisord', services, report: findings.entries };
}

/** program name -> the [group:x] that lists it; a program in two groups or a missing one is an error. */
function groupMembership(sections: IniSection[]): Map<string, string> {
  const programs = new Set(sections.filter((s) => s.name.startsWith('program:')).map((s) => s.name.slice('program:'.length)));
  const member = new Map<string, string>();
  for (const section of sections.filter((s) => s.name.startsWith('group:'))) {
    const group = section.name.slice('group:'.length);
    const option = section.options.get('programs');
    if (!option) throw invalid(`${section.file}:${section.line}: [${section.name}] programs: must be specified`);
    for (const program of option.value.split(',').map((p) => p.trim()).filter(Boolean)) {
      if (!programs.has(program)) throw invalid(`${option.file}:${option.line}: [${section.name}] programs: no section [program:${program}]`);
      if (member.has(program)) throw invalid(`${option.file}:${option.line}: [${section.name}] programs: ${program} is already in [group:${member.get(program)}]`);
      member.set(program, group);
    }
  }
  return member;
}

function daemonEnvironment(section: IniSection, here: string, env: Record<string, string | undefined>, findings: Findings): Record<string, string> {
  const option = section.options.get('environment');
  if (!option) return {};
  const expansions: Expansions = { here, ...envExpansions(env) };
  try {
    const { value, used } = expand(option.value, expansions, 'environment');
    const names = used.filter((u) => u.startsWith('ENV_')).map((u) => u.slice(4));
    if (names.length > 0) {
      findings.approximated(option.file, option.line, null, '[supervisord] environment', `expanded %(ENV_${names.join(')s, %(ENV_')})s from the environment of svc import (supervisord read its own environment at start)`);
    }
    return parseEnvironment(value);
  } catch (err) {
    throw invalid(`${option.file}:${option.line}: [supervisord] environment: ${(err as Error).message.replace(/^environment: /, '')}`);
  }
}
