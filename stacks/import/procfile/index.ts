import { dirname, join, resolve } from 'node:path';
import { parse as parseDotenv } from 'dotenv';
import { invalid } from '../../../state/errors.js';
import type { ProgramConfig } from '../../../state/program.js';
import { commandFields } from '../common/command.js';
import { dotenvLineOf } from '../common/locate.js';
import { NameRegistry, toProgramName } from '../common/names.js';
import { Findings } from '../report.js';
import type { ImportOptions, ImportPorts, ImportResult } from '../types.js';

/** foreman's line format: a process type, a colon, the command (run by /bin/sh when needed). */
const LINE = /^([A-Za-z0-9_-]+):\s*(.+)$/;

/** foreman's base port (its default; `PORT` in the .env overrides it) and the step per type. */
const BASE_PORT = 5000;
const PORT_STEP = 100;

/**
 * Imports a Procfile (Heroku, foreman, honcho): one program per process type, in the file's
 * folder, with `PORT` set as foreman sets it (base + 100 per type, in file order). The `.env`
 * next to the Procfile (or `opts.envFile`) becomes `env_file`, read at each start as foreman
 * reads it, so its secrets stay out of the stack.
 */
export function importProcfile(path: string, label: string, ports: ImportPorts, opts: ImportOptions = {}): ImportResult {
  const absolute = resolve(path);
  const dir = dirname(absolute);
  const lines = ports.readText(absolute).split(/\r?\n/);
  const findings = new Findings();
  const names = new NameRegistry();
  const envPath = opts.envFile ? resolve(opts.envFile) : join(dir, '.env');
  const hasEnv = ports.exists(envPath);
  if (opts.envFile && !hasEnv) throw invalid(`${opts.envFile}: cannot read: ENOENT`);
  const envText = hasEnv ? ports.readText(envPath) : '';
  const dotenv = parseDotenv(envText);
  const basePort = /^\d+$/.test(dotenv.PORT ?? '') ? Number(dotenv.PORT) : BASE_PORT;
  const services: ProgramConfig[] = [];
  lines.forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const m = LINE.exec(line);
    if (!m) throw invalid(`${label}:${index + 1}: expected 'name: command', got '${line}'`);
    const name = names.claim(toProgramName(m[1]) ?? m[1]);
    if (name !== m[1]) findings.approximated(label, index + 1, name, 'name', `'${m[1]}' is not a valid svc name (or is taken); renamed to '${name}'`);
    const config: ProgramConfig = { name, ...commandFields(m[2], ['/bin/sh', '-c']), cwd: dir, env: { PORT: String(basePort + PORT_STEP * services.length) } };
    if (hasEnv) config.env_file = envPath;
    if (m[1] === 'release') {
      findings.approximated(label, index + 1, name, 'release', 'Heroku runs the release process once per deploy; svc runs it as a program (an exit with code 0 is not restarted)');
    }
    services.push(config);
  });
  if (services.length === 0) throw invalid(`${label}: no process types (lines like 'web: command')`);
  if (hasEnv && dotenv.PORT !== undefined) {
    // Named as the user can open it: --env-file as typed, else the .env beside the Procfile as named.
    findings.approximated(opts.envFile ?? join(dirname(label), '.env'), dotenvLineOf(envText, 'PORT'), null, 'PORT', `the base port of the process types (foreman's rule); env sets PORT per program, which overrides the env_file value`);
  }
  return { format: 'procfile', services, report: findings.entries };
}
