import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_NESTING, tooDeepAt, valueTooDeep } from '../../../state/schema/nesting.js';

const nest = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;

test('JSON: 64 levels pass, the 65th bracket is reported; brackets in strings do not count', () => {
  assert.equal(MAX_NESTING, 64);
  assert.equal(tooDeepAt(nest(64), 'json'), -1);
  assert.equal(tooDeepAt(nest(65), 'json'), 64);
  assert.equal(tooDeepAt(`{"a":"${'['.repeat(500)}","b":"\\"[[["}`, 'json'), -1);
  assert.equal(tooDeepAt(`{"a":${'{"b":'.repeat(70)}1${'}'.repeat(70)}}`, 'json'), 5 * 63 + 5);
});

test('TOML: strings, multi-line strings and comments are skipped; table headers close on their line', () => {
  const many = Array.from({ length: 100 }, (_, i) => `[[services]]\nname = "s${i}"\n`).join('');
  assert.equal(tooDeepAt(many, 'toml'), -1);
  assert.equal(tooDeepAt(`a = "${'['.repeat(100)}"\nb = '${'{'.repeat(100)}'\n# ${'['.repeat(100)}\nc = """\n${'['.repeat(100)}\n"""\nd = '''${'['.repeat(100)}'''\n`, 'toml'), -1);
  assert.equal(tooDeepAt(`x = ${nest(65)}`, 'toml'), 4 + 64);
});

test('YAML: only flow collections count; plain scalars, quotes, comments and block scalars do not', () => {
  assert.equal(tooDeepAt(`services:\n  - command: echo a${'['.repeat(100)}\n    args: ["${'['.repeat(100)}", '${'{'.repeat(100)}']\n`, 'yaml'), -1);
  assert.equal(tooDeepAt(`# ${'['.repeat(100)}\nmsg: it's ${'['.repeat(100)}\n`, 'yaml'), -1);
  assert.equal(tooDeepAt(`script: |\n  ${'['.repeat(100)}\n  more\nnext: ${nest(3)}\n`, 'yaml'), -1);
  assert.equal(tooDeepAt(`services: ${nest(65)}`, 'yaml'), 10 + 64);
  assert.equal(tooDeepAt(`a:\n  - ${'{x: '.repeat(70)}1${'}'.repeat(70)}`, 'yaml'), 7 + 4 * 64);
  assert.equal(tooDeepAt(`script: >-\n  ${'['.repeat(100)}\nb: ${nest(65)}`, 'yaml'), 11 + 103 + 3 + 64);
});

test('parsed values: depth counted per object or array; a cycle counts as too deep', () => {
  const deep = (n: number): unknown => (n === 0 ? 1 : { a: [deep(n - 1)] });
  assert.equal(valueTooDeep(deep(32)), false); // 64 levels
  assert.equal(valueTooDeep(deep(33)), true);
  assert.equal(valueTooDeep('x'), false);
  const cycle: Record<string, unknown> = {};
  cycle.self = cycle;
  assert.equal(valueTooDeep(cycle), true);
});
