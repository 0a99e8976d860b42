import { splitCommand } from '../../../state/command-line.js';
import { fieldOfMessage } from './field-error.js';

/** The add-program form: its fields and the configuration it sends (validated by the daemon). */

export interface ProgramForm {
  name: string;
  command: string;
  /** Shell-like: spaces separate, quotes group, backslash escapes. */
  args: string;
  cwd: string;
  /** One `KEY=VALUE` a line. */
  env: string;
  autorestart: 'unexpected' | 'true' | 'false';
  autostart: boolean;
  cron: string;
  /** Any other fields, as a JSON object merged last (health_check, depends_on, ...). */
  extra: string;
}

export const EMPTY_FORM: ProgramForm = { name: '', command: '', args: '', cwd: '', env: '', autorestart: 'unexpected', autostart: true, cron: '', extra: '' };

/** The form fields a daemon message may name (see field-error.ts); others go under `extra`. */
export const FORM_FIELDS = ['name', 'command', 'args', 'cwd', 'env', 'autorestart', 'autostart', 'cron'] as const;

/** A mistake found before sending, with the field it belongs to. */
export class FormError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** The args field, split as svcd splits a `command` line (POSIX quoting, no expansion). */
export function splitArgs(text: string): string[] {
  try {
    return splitCommand(text);
  } catch (err) {
    throw new FormError('args', `args: ${(err as Error).message}`);
  }
}

export function parseEnv(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith('#')) return;
    const eq = line.indexOf('=');
    if (eq <= 0) throw new FormError('env', `env: line ${i + 1}: expected KEY=VALUE, got '${line}'`);
    env[line.slice(0, eq).trim()] = line.slice(eq + 1);
  });
  return env;
}

/** The create body; only fields the user set (the daemon applies its defaults to the rest). */
export function formToConfig(f: ProgramForm, source = 'web:add'): Record<string, unknown> {
  const config: Record<string, unknown> = { name: f.name.trim(), command: f.command.trim() };
  const args = splitArgs(f.args);
  if (args.length) config.args = args;
  if (f.cwd.trim()) config.cwd = f.cwd.trim();
  const env = parseEnv(f.env);
  if (Object.keys(env).length) config.env = env;
  if (f.autorestart !== 'unexpected') config.autorestart = f.autorestart;
  if (!f.autostart) config.autostart = false;
  if (f.cron.trim()) config.cron = f.cron.trim();
  if (f.extra.trim()) {
    let extra: unknown;
    try {
      extra = JSON.parse(f.extra);
    } catch (err) {
      throw new FormError('extra', `extra: not JSON: ${(err as Error).message}`);
    }
    if (typeof extra !== 'object' || extra === null || Array.isArray(extra)) throw new FormError('extra', 'extra: must be a JSON object of program fields');
    Object.assign(config, extra);
  }
  config.source = source;
  return config;
}

/** The keys of the "Other fields" JSON object, or none when it is not one. */
function extraKeys(extra: string): string[] {
  try {
    const value: unknown = JSON.parse(extra);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.keys(value) : [];
  } catch {
    return [];
  }
}

/**
 * Where a daemon message about this form belongs: a field set in "Other fields" goes under that
 * box (it wins over the form's own field of that name: formToConfig), another form field under
 * its input, anything else above the buttons (null).
 */
export function formFieldOfMessage(message: string, form: ProgramForm): string | null {
  const fromExtra = extraKeys(form.extra);
  const named = fieldOfMessage(message, [...FORM_FIELDS, 'extra', ...fromExtra]);
  return named !== null && fromExtra.includes(named) ? 'extra' : named;
}
