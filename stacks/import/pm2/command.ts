import { extname, isAbsolute } from 'node:path';
import { splitCommand } from '../../../state/command-line.js';
import { invalid } from '../../../state/errors.js';
import { show } from '../common/values.js';

/** PM2's interpreter for a script without `interpreter`, by extension (lib/API/interpreter map). */
const BY_EXTENSION: Record<string, string> = {
  '.js': 'node',
  '.cjs': 'node',
  '.mjs': 'node',
  '.ts': 'ts-node',
  '.coffee': 'coffee',
  '.sh': 'bash',
  '.py': 'python',
  '.rb': 'ruby',
  '.php': 'php',
  '.pl': 'perl',
};

/** PM2 accepts `args`/`node_args` as a list or as one string split like shell words. */
export function wordList(value: unknown, field: string): string[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.map((v) => String(v));
  if (typeof value === 'string') {
    try {
      return splitCommand(value);
    } catch (err) {
      throw invalid(`${field}: ${(err as Error).message}`);
    }
  }
  return [show(value)];
}

/**
 * The process PM2 starts for an app: `interpreter [interpreter_args] script [args]`, or the
 * script itself for `interpreter: 'none'` and scripts of no known type (binaries, `npm`).
 * A script name without a slash that exists in `cwd` is made `./name`, as PM2 resolves it there.
 */
export function pm2Command(
  app: Record<string, unknown>,
  exists: (path: string) => boolean,
  cwd: string,
): { command: string; args: string[]; interpreter: string | null } {
  const script = String(app.script);
  const args = wordList(app.args, 'args');
  const explicit = app.interpreter ?? app.exec_interpreter;
  const interpreter = typeof explicit === 'string' && explicit !== '' ? explicit : (BY_EXTENSION[extname(script).toLowerCase()] ?? 'none');
  if (interpreter === 'none') {
    const local = !script.includes('/') && !isAbsolute(script) && exists(`${cwd}/${script}`);
    return { command: local ? `./${script}` : script, args, interpreter: null };
  }
  const interpreterArgs = [...wordList(app.interpreter_args, 'interpreter_args'), ...wordList(app.node_args, 'node_args')];
  return { command: interpreter, args: [...interpreterArgs, script, ...args], interpreter };
}
