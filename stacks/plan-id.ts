import { createHash } from 'node:crypto';
import { conflict, invalid } from '../state/errors.js';
import type { ProgramRecord } from '../state/program.js';
import type { StackPlan } from './plan.js';

/** A plan id: 16 lowercase hex digits (64 bits of a SHA-256: enough to tell two plans apart). */
export const PLAN_ID_PATTERN = /^[0-9a-f]{16}$/;

/**
 * The id of what an apply would do: every line of the plan (action, name, restart) with the
 * configuration it writes and, for a program that exists, the configuration it finds. The same
 * stack against the same programs has the same id; a change to the stack, or to a program the
 * plan names, made between a dry run and the apply gives another. Run intents (a stop, a
 * restart) are left out: they change the plan only through its `restart` marks. New programs'
 * ids are random, so they are left out too.
 */
export function planId(plan: StackPlan, existing: ReadonlyMap<string, ProgramRecord>): string {
  const written = new Map(plan.change.put.map((r) => [r.id, r.config]));
  const lines = plan.entries.map((e) => [e.action, e.name, e.restart, canonical(written.get(e.id) ?? null), canonical(existing.get(e.id)?.config ?? null)]);
  return createHash('sha256').update(JSON.stringify(lines)).digest('hex').slice(0, 16);
}

/** The `plan` parameter: a plan id a dry run answered, or undefined when not given. */
export function planParam(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !PLAN_ID_PATTERN.test(value)) {
    throw invalid('plan: must be the 16-hex-digit plan id a dry run answered (plan in its answer)');
  }
  return value;
}

/** Refuses an apply whose plan is not the one reviewed; nothing has been written. */
export function checkPlan(expected: string | undefined, actual: string): void {
  if (expected === undefined || expected === actual) return;
  throw conflict(`plan: the plan is ${actual} now, not ${expected} (the stack or a program it names changed since that dry run); nothing was changed: review a new dry run and apply its plan`);
}

/** JSON with object keys in order, so that two equal configurations read alike whatever order their keys were written in. */
function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((k) => record[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(record[k])}`).join(',')}}`;
}
