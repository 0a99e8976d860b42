import type { Rng } from './rng.js';

/** Strings that break naive code: empty, control characters, NUL, unicode, paths, huge, numeric-looking. */
export function nastyString(rng: Rng): string {
  return rng.pick([
    () => '',
    () => ' ',
    () => 'a\u0000b',
    () => '\u0000',
    () => '\u0007\u001b[31m',
    () => 'ünïcödé ✓ 🚀',
    () => '\ud800',
    () => '../../../../etc/passwd',
    () => '/proc/self/environ',
    () => '%00%2e%2e',
    () => "'; DROP TABLE programs; --",
    () => '${HOME} $(id) `id`',
    () => 'x'.repeat(rng.int(100, 70_000)),
    () => String(rng.int(-5, 5)),
    () => '1e308',
    () => 'NaN',
    () => 'true',
    () => 'null',
    () => '00000000-0000-4000-8000-000000000000',
    () => `fz-${rng.int(0, 1e6)}`,
    () => '[[[[[[',
    () => '*/5 * * * *',
    () => 'http://127.example.com/',
  ])();
}

export function nastyNumber(rng: Rng): number {
  return rng.pick([0, -1, 1, 0.5, -0.000001, 63, 64, 65, 255, 256, 4096, 65535, 65536, 2 ** 31 - 1, 2 ** 31, 2 ** 32, 2 ** 53, 1e21, 1e308, -1e308, 31_536_000, 31_536_001]);
}

/** Any JSON value, nested up to `depth` (beyond the documented limit now and then). */
export function randomJson(rng: Rng, depth = rng.int(0, 6)): unknown {
  if (depth <= 0) return rng.pick([() => nastyString(rng), () => nastyNumber(rng), () => rng.chance(0.5), () => null])();
  if (rng.chance(0.5)) return Array.from({ length: rng.int(0, 4) }, () => randomJson(rng, depth - 1));
  return Object.fromEntries(Array.from({ length: rng.int(0, 4) }, () => [rng.chance(0.5) ? nastyString(rng).slice(0, 40) : rng.pick(['name', 'command', 'args', 'env', 'action', 'type', 'payload', 'services', 'signal', 'target_ids']), randomJson(rng, depth - 1)]));
}

/** Bodies that are not valid JSON, or valid JSON of a surprising shape or size. */
export function malformedBody(rng: Rng, valid: string, kind?: number): Buffer {
  const kinds = malformedKinds(rng, valid);
  return (kind === undefined ? rng.pick(kinds) : (kinds[kind % kinds.length]))();
}

/** How many kinds malformedBody has (a sweep sends each once). */
export const MALFORMED_KIND_COUNT = 18;

function malformedKinds(rng: Rng, valid: string): (() => Buffer)[] {
  return [
    () => Buffer.from(valid.slice(0, rng.int(0, Math.max(0, valid.length - 1)))),
    () => Buffer.from(`${valid}}`),
    () => Buffer.from([0xff, 0xfe, 0x7b, 0x22, 0x00]),
    () => Buffer.from('{"a":1,}'),
    () => Buffer.from('{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}'),
    () => Buffer.from(`${'['.repeat(10_000)}${']'.repeat(10_000)}`),
    () => Buffer.from(`${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`),
    () => Buffer.from(JSON.stringify({ name: 'x'.repeat(900_000) })),
    () => Buffer.from('x'.repeat(1024 * 1024 + 1)),
    () => Buffer.from(''),
    () => Buffer.from('   '),
    () => Buffer.from('null'),
    () => Buffer.from('[]'),
    () => Buffer.from('"just a string"'),
    () => Buffer.from(JSON.stringify(randomJson(rng))),
    () => Buffer.from(JSON.stringify(Array.from({ length: 2000 }, () => ({})))),
    () => Buffer.from('a: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nservices: *c\n'),
    () => Buffer.from('[[services]]\nname = "fz-toml"\ncommand = "svcfuzz-missing"\nautostart = false\n'),
  ];
}
