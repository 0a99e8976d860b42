import type { Rng } from './rng.js';
import { nastyNumber, nastyString, randomJson } from './values.js';

type Schema = Record<string, unknown>;

/**
 * Commands the fuzz may make svcd run: harmless, or certain not to exist. Random strings never
 * reach a command field (a random word could be a real binary).
 */
export const SAFE_COMMANDS = ['true', 'sleep 1000', 'svcfuzz-no-such-command', 'sh -c "exit 3"', '/bin/true'];
/** Hooks run to completion before a start or restart answers: nothing that lasts. */
const SAFE_HOOKS = ['true', 'svcfuzz-no-such-command', 'sh -c "exit 3"'];
const COMMAND_FIELDS = new Set(['command', 'pre_start', 'post_stop']);

/**
 * A value for a JSON Schema (the OpenAPI document's own schemas): mostly valid, sometimes at or
 * past a bound, sometimes of another type or with an unknown field, so both the accepting and
 * the refusing paths run.
 */
export function fromSchema(rng: Rng, schema: Schema, resolve: (ref: string) => Schema, field = '', depth = 0): unknown {
  if (COMMAND_FIELDS.has(field)) return rng.chance(0.9) ? rng.pick(field === 'command' ? SAFE_COMMANDS : SAFE_HOOKS) : rng.pick(['', 'a\u0000b', 'x'.repeat(5000)]);
  if (rng.chance(0.04) || depth > 8) return randomJson(rng, 1);
  if (typeof schema.$ref === 'string') return fromSchema(rng, resolve(schema.$ref), resolve, field, depth + 1);
  for (const key of ['oneOf', 'anyOf'] as const) {
    const options = schema[key] as Schema[] | undefined;
    if (options) return fromSchema(rng, rng.pick(options), resolve, field, depth + 1);
  }
  if (Array.isArray(schema.allOf)) return fromSchema(rng, rng.pick(schema.allOf as Schema[]), resolve, field, depth + 1);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return rng.chance(0.9) ? rng.pick(schema.enum) : nastyString(rng);
  const type = Array.isArray(schema.type) ? rng.pick(schema.type as string[]) : (schema.type as string | undefined);
  switch (type) {
    case 'object':
      return objectFrom(rng, schema, resolve, depth);
    case 'array': {
      const items = (schema.items as Schema | undefined) ?? {};
      return Array.from({ length: rng.int(0, 3) }, () => fromSchema(rng, items, resolve, field, depth + 1));
    }
    case 'string':
      return stringFor(rng, field, schema);
    case 'integer':
    case 'number':
      return numberFor(rng, schema, type);
    case 'boolean':
      return rng.chance(0.5);
    case 'null':
      return null;
    default:
      return randomJson(rng, 2);
  }
}

function objectFrom(rng: Rng, schema: Schema, resolve: (ref: string) => Schema, depth: number): Record<string, unknown> {
  const props = (schema.properties as Record<string, Schema> | undefined) ?? {};
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const out: Record<string, unknown> = {};
  for (const [key, sub] of Object.entries(props)) {
    if (required.has(key) ? rng.chance(0.95) : rng.chance(0.25)) out[key] = fromSchema(rng, sub, resolve, key, depth + 1);
  }
  if (rng.chance(0.08)) out[nastyString(rng).slice(0, 30) || 'unknown_field'] = randomJson(rng, 1);
  return out;
}

function stringFor(rng: Rng, field: string, schema: Schema): string {
  if (rng.chance(0.3)) return nastyString(rng);
  if (field === 'name' || field === 'group_name') return `fz-${rng.int(0, 200)}`;
  if (schema.format === 'uuid') return '00000000-0000-4000-8000-00000000000' + rng.int(0, 9);
  if (field === 'url' || field === 'source') return rng.pick(['http://127.0.0.1:1/health', 'https://example.invalid/x']);
  if (field === 'cron') return rng.pick(['*/5 * * * *', '@hourly', '61 * * * *', '* * *']);
  return `s${rng.int(0, 1000)}`;
}

function numberFor(rng: Rng, schema: Schema, type: string): number {
  const min = typeof schema.minimum === 'number' ? schema.minimum : undefined;
  const max = typeof schema.maximum === 'number' ? schema.maximum : undefined;
  const candidates = [min, max, min !== undefined ? min - 1 : undefined, max !== undefined ? max + 1 : undefined].filter((n): n is number => n !== undefined);
  if (candidates.length > 0 && rng.chance(0.5)) return rng.pick(candidates);
  if (rng.chance(0.3)) return nastyNumber(rng);
  const lo = min ?? 0;
  const hi = Math.min(max ?? 100, lo + 100);
  return type === 'integer' ? rng.int(lo, hi) : lo + rng.next() * (hi - lo);
}
