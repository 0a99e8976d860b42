import { checkDependencies } from '../state/dependencies.js';
import { invalid, SvcError } from '../state/errors.js';
import type { ProgramConfig } from '../state/program.js';
import { validateCreate } from '../state/schema/validate.js';
import type { LoadedStack, RawService } from './load.js';

/** A validated stack service: its normalized config (with `source` set) and how to name it in messages. */
export interface DesiredService {
  config: ProgramConfig;
  /**
   * How its depends_on problems start: `services[i] (name=x)`, preceded for file-based stacks by
   * the `path:line:col: ` of its depends_on (of the service when it has none).
   */
  label: string;
}

export interface StackValidationContext {
  /** `[storage].log_dir` of the daemon (custom log paths must resolve under it). */
  logDir: string;
  /** Offline check: the daemon's log_dir is not known, skip that rule. */
  logDirUnknown?: boolean;
  /** The stack's source label (`stack:<file>`, `stack:api`, ...) for services that set none. */
  source: string;
}

/**
 * Validates every service with the one program schema, sets `source`, and refuses duplicate
 * names. All problems are reported at once, one per line; nothing is written by this function.
 */
export function validateServices(stack: LoadedStack, ctx: StackValidationContext): DesiredService[] {
  const problems: string[] = [];
  const out: DesiredService[] = [];
  const firstByName = new Map<string, RawService>();
  for (const raw of stack.services) {
    const label = labelOf(raw);
    try {
      if (typeof raw.body !== 'object' || raw.body === null || Array.isArray(raw.body)) throw invalid(`${label}: must be a table/object (a program configuration)`);
      const config = validateCreate(raw.body, {
        logDir: ctx.logDir,
        logDirUnknown: ctx.logDirUnknown,
        locate: raw.doc.locate,
        basePath: ['services', raw.index],
        formatPosition: raw.doc.formatPosition,
        prefix: label,
        // A file's problem starts with the place of its field, not of the service (`web.toml:7:1: services[0] (name=web): command: ...`).
        prefixAt: raw.where ? (path) => `${placeOf(raw, path)}: ${labelOf({ ...raw, where: null })}` : undefined,
      });
      // `source = ""` means no label (spec: empty clears); `svc export` writes it for unlabelled programs.
      if (config.source === '') delete config.source;
      else config.source ??= raw.includedFrom ? `include:${raw.includedFrom}` : ctx.source;
      const first = firstByName.get(config.name);
      if (first) {
        const elsewhere = first.file !== raw.file && first.file ? ` in ${first.file}` : '';
        // A file's problem starts with the place of its field, the second `name`.
        const at = raw.where ? `${placeOf(raw, ['name'])}: ${labelOf({ ...raw, where: null })}` : label;
        throw invalid(`${at}: name: duplicate of services[${first.index}]${elsewhere} (names must be unique in a stack)`);
      }
      firstByName.set(config.name, raw);
      out.push({ config, label: raw.where ? `${placeOf(raw, ['depends_on'])}: ${labelOf({ ...raw, where: null })}` : label });
    } catch (err) {
      if (!(err instanceof SvcError)) throw err;
      problems.push(err.message);
    }
  }
  if (problems.length > 0) throw invalid(problems.join('\n'));
  return out;
}

/**
 * The daemon judges the body of a stack file without the file: its messages name a service by
 * its index in the body (`services[3] (name=web): depends_on: unknown service(s): db`). For
 * `svc apply`, such a line gets the place of its field in the file the service came from (an
 * included file too) and that file's index, as `svc check` writes problems: `lib/web.toml:9:1:
 * services[1] (name=web): depends_on: …`. `stack` is the loaded file whose services (includes
 * flattened, in order) made the body. Other lines are left as they are.
 */
export function locateAnswer(message: string, stack: LoadedStack): string {
  return message
    .split('\n')
    .map((line) => {
      const m = /^services\[(\d+)\](?: \(name=[^)]*\))?: (([A-Za-z0-9_.]+): .*)$/s.exec(line);
      const raw = m ? stack.services[Number(m[1])] : undefined;
      if (!m?.[2] || !m[3] || !raw?.where) return line;
      return `${placeOf(raw, m[3].split('.'))}: ${labelOf({ ...raw, where: null })}: ${m[2]}`;
    })
    .join('\n');
}

/** Where a field of a service is written: the field, else its nearest enclosing place that can be found. */
function placeOf(raw: RawService, path: (string | number)[]): string {
  for (let n = path.length; n >= 0; n--) {
    const pos = raw.doc.locate(['services', raw.index, ...path.slice(0, n)]);
    if (pos) return raw.doc.formatPosition(pos);
  }
  return raw.where ?? raw.file ?? 'stack';
}

function labelOf(raw: RawService): string {
  const name = (raw.body as { name?: unknown } | null)?.name;
  const id = `services[${raw.index}]${typeof name === 'string' ? ` (name=${name})` : ''}`;
  return raw.where ? `${raw.where}: ${id}` : id;
}

/**
 * depends_on across the stack and the programs that stay outside it: unknown names and cycles,
 * named with the stack label of the service. `others` are configs that will exist after the apply.
 */
export function checkStackDependencies(desired: DesiredService[], others: ProgramConfig[]): void {
  const labels = new Map(desired.map((d) => [d.config.name, d.label]));
  const all = [...others.filter((c) => !labels.has(c.name)), ...desired.map((d) => d.config)];
  checkDependencies(all, new Set(labels.keys()), (name) => labels.get(name) ?? `program '${name}'`);
}

/**
 * Offline variant (no daemon): cycles are errors; names outside the stack cannot be checked and
 * come back as warnings (they must exist in the daemon when the stack is applied).
 */
export function checkStackDependenciesOffline(desired: DesiredService[]): string[] {
  const names = new Set(desired.map((d) => d.config.name));
  const warnings: string[] = [];
  const stubs = new Map<string, ProgramConfig>();
  for (const d of desired) {
    const outside = (d.config.depends_on ?? []).filter((dep) => !names.has(dep));
    for (const dep of outside) stubs.set(dep, { name: dep, command: '-' });
    if (outside.length > 0) warnings.push(`${d.label}: depends_on: not in this stack (must exist in the daemon): ${outside.join(', ')}`);
  }
  checkStackDependencies(desired, [...stubs.values()]);
  return warnings;
}
