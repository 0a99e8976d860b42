import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkResultingSet, checkWholeSet } from '../../../state/resulting-set.js';
import type { ProgramRecord } from '../../../state/program.js';
import type { Change } from '../../../state/store-types.js';

/** A small deterministic generator (mulberry32), so a failing case can be replayed by its seed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const record = (id: string, name: string, deps: string[]): ProgramRecord => ({
  id,
  config: { name, command: 'true', ...(deps.length > 0 ? { depends_on: deps } : {}) },
  intent: { run: 'running' } as ProgramRecord['intent'],
  revision: 1,
  created_at: 0,
  updated_at: 0,
});

/** A committed set that passes the checks: unique names, dependencies only on earlier programs (no cycle). */
function committedSet(rnd: () => number): Map<string, ProgramRecord> {
  const out = new Map<string, ProgramRecord>();
  const size = Math.floor(rnd() * 8);
  for (let i = 0; i < size; i++) {
    const deps = [...out.values()].filter(() => rnd() < 0.3).map((r) => r.config.name);
    out.set(`id${i}`, record(`id${i}`, `p${i}`, deps));
  }
  return out;
}

/** Any mix of new programs, rewrites (renames, new dependencies, intent-only) and removals, valid or not. */
function someChange(rnd: () => number, records: Map<string, ProgramRecord>): Change {
  const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)];
  const names = () => Array.from({ length: 10 }, (_, i) => `p${i}`);
  const deps = () => names().filter(() => rnd() < 0.2);
  const change: Change = { put: [], del: [] };
  const ids = [...records.keys()];
  const steps = 1 + Math.floor(rnd() * 3);
  for (let s = 0; s < steps; s++) {
    const kind = rnd();
    if (kind < 0.35) change.put.push(record(`new${s}`, pick(names()), deps()));
    else if (ids.length > 0 && kind < 0.55) change.del.push(pick(ids));
    else if (ids.length > 0 && kind < 0.75) {
      const old = records.get(pick(ids))!;
      change.put.push(record(old.id, rnd() < 0.5 ? pick(names()) : old.config.name, deps()));
    } else if (ids.length > 0) change.put.push({ ...records.get(pick(ids))!, intent: { run: 'stopped' } as ProgramRecord['intent'] });
  }
  return change;
}

const outcome = (check: () => void): string => {
  try {
    check();
    return 'ok';
  } catch (err) {
    return (err as Error).message;
  }
};

void test('resulting set: the check that walks from the written programs answers exactly as the whole-set check (20,000 random writes)', () => {
  let refused = 0;
  for (let seed = 1; seed <= 20_000; seed++) {
    const rnd = random(seed);
    const records = committedSet(rnd);
    const names = new Map([...records.values()].map((r) => [r.config.name, r.id]));
    const change = someChange(rnd, records);
    const changed = (r: ProgramRecord) => records.get(r.id)?.config !== r.config;
    const whole = outcome(() => checkWholeSet(records, change, changed));
    assert.equal(outcome(() => checkResultingSet(records, names, change, changed)), whole, `seed ${seed}: ${JSON.stringify(change)}`);
    if (whole !== 'ok') refused++;
  }
  // The generator reaches both answers often (else the comparison proves little).
  assert.ok(refused > 2000 && refused < 18_000, `${refused} of 20,000 refused`);
});

void test('resulting set: a new cycle through a renamed program is refused', () => {
  const records = new Map([record('a', 'a', ['x']), record('b', 'b', ['a'])].map((r) => [r.id, r]));
  const names = new Map([...records.values()].map((r) => [r.config.name, r.id]));
  // b is renamed to x: a -> x(b) -> a, told from the renamed program.
  const change: Change = { put: [{ ...records.get('b')!, config: { ...records.get('b')!.config, name: 'x' } }], del: [] };
  assert.throws(() => checkResultingSet(records, names, change, (r) => records.get(r.id)?.config !== r.config), /program 'x': depends_on: dependency cycle detected: x -> a -> x/);
});
