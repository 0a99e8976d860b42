import { CliError } from './errors.js';
import { programProperties } from '../../state/schema/program-schema.js';

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `--set artifact.checksum=…` sets one field of an object field (`artifact`, `health_check`, `hooks`...). */
export function setField(config: Obj, path: string, value: unknown): void {
  const parts = path.split('.');
  const last = parts.pop()!;
  let target = config;
  for (const part of parts) {
    target[part] = isObject(target[part]) ? { ...target[part] } : {};
    target = target[part] as Obj;
  }
  target[last] = value;
}

/** The object fields that `--set a.b=…` options touch. */
export function dottedRoots(pairs: string[] | undefined): Set<string> {
  return new Set((pairs ?? []).map((p) => p.slice(0, p.indexOf('='))).filter((k) => k.includes('.')).map((k) => k.split('.')[0]));
}

/**
 * An update replaces object fields whole (the API's rule), so an object field set in part keeps
 * the rest of its current value: `svc update web --set artifact.checksum=…` changes only the checksum.
 */
export function mergeWithCurrent(patch: Obj, current: Obj, roots: Set<string>): void {
  for (const root of roots) {
    if (isObject(patch[root]) && isObject(current[root])) patch[root] = deepMerge(current[root], patch[root]);
  }
}

function deepMerge(base: Obj, over: Obj): Obj {
  const out: Obj = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = isObject(v) && isObject(base[k]) ? deepMerge(base[k], v) : v;
  return out;
}

/**
 * `--unset env.DEBUG`: removes one field of an object field, from the patch built over its
 * current value (mergeWithCurrent); an object left empty is removed whole. A field that is not
 * there is a usage error, so that a misspelt name does not pass for done.
 */
export function unsetField(patch: Obj, current: Obj, path: string): void {
  const [root, ...rest] = path.split('.');
  const base = isObject(patch[root]) ? patch[root] : isObject(current[root]) ? current[root] : null;
  const target = rest.slice(0, -1).reduce<Obj | null>((o, k) => (o && isObject(o[k]) ? o[k] : null), base);
  const last = rest[rest.length - 1];
  if (!target || !(last in target)) throw new CliError(`--unset ${path}: the program has no such field`, 2);
  const copy = deepMerge({}, base!);
  const parent = rest.slice(0, -1).reduce<Obj>((o, k) => o[k] as Obj, copy);
  delete parent[last];
  patch[root] = Object.keys(copy).length > 0 ? copy : null;
}

/**
 * `--unset FIELD` of a whole field: one the schema does not have, one the program does not set,
 * and `name` or `command` (a program must have them) are usage errors.
 */
export function checkUnset(current: Obj, field: string): void {
  if (!Object.hasOwn(programProperties, field)) throw new CliError(`--unset ${field}: not a program field`, 2);
  if (field === 'name' || field === 'command') throw new CliError(`--unset ${field}: a program must have a ${field} (change it with ${field === 'name' ? '--name' : 'a new command'})`, 2);
  if (!(field in current)) throw new CliError(`--unset ${field}: the program has no such field`, 2);
}
