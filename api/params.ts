import { invalid } from '../state/errors.js';

type Query = string | string[] | undefined;

function single(value: Query, name: string): string | undefined {
  if (Array.isArray(value)) throw invalid(`${name}: given more than once`);
  return value;
}

/** An integer query parameter within bounds; 400 naming the parameter otherwise. */
export function integerParam(value: Query, name: string, opts: { min?: number; max?: number; fallback?: number } = {}): number | undefined {
  const text = single(value, name);
  if (text === undefined || text === '') return opts.fallback;
  if (!/^-?\d+$/.test(text)) throw invalid(`${name}: must be an integer, got '${text}'`);
  const n = Number(text);
  if (opts.min !== undefined && n < opts.min) throw invalid(`${name}: must be at least ${opts.min}`);
  if (opts.max !== undefined && n > opts.max) throw invalid(`${name}: must be at most ${opts.max}`);
  return n;
}

/** A text query parameter: undefined when absent or empty (like the numeric ones); 400 when repeated. */
export function textParam(value: Query, name: string): string | undefined {
  const text = single(value, name);
  return text === '' ? undefined : text;
}

export function booleanParam(value: Query, name: string, fallback: boolean): boolean {
  const text = single(value, name);
  if (text === undefined || text === '') return fallback;
  if (text === 'true' || text === '1') return true;
  if (text === 'false' || text === '0') return false;
  throw invalid(`${name}: must be true or false, got '${text}'`);
}

/** A boolean query parameter that may be absent (undefined): an explicit false is then not the same as none. */
export function optionalBooleanParam(value: Query, name: string): boolean | undefined {
  const text = single(value, name);
  return text === undefined || text === '' ? undefined : booleanParam(text, name, false);
}
