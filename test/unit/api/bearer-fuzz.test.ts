import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_CREDENTIAL, parseBearer } from '../../../api/auth/bearer.js';

/** A small seeded PRNG (mulberry32): the fuzz run is the same on every machine. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABET = ['B', 'e', 'a', 'r', 'E', 'R', ' ', '\t', '\r', '\n', '\0', '\x7f', 'x', '-', '_', '=', ':', ',', 'é', '🔑', 'sk-', 'Bearer ', 'bearer', 'Basic '];

function randomHeader(next: () => number): string {
  const n = Math.floor(next() * 40);
  let out = next() < 0.5 ? ['Bearer ', 'bearer\t', 'BEARER  ', ' Bearer ', 'Bearer'][Math.floor(next() * 5)] ?? '' : '';
  for (let i = 0; i < n; i++) out += ALPHABET[Math.floor(next() * ALPHABET.length)] ?? '';
  if (next() < 0.02) out += 'x'.repeat(MAX_CREDENTIAL);
  return out;
}

test('parseBearer never throws and returns only clean credentials (fuzz, 20000 headers)', () => {
  const next = rng(0x5eed);
  for (let i = 0; i < 20_000; i++) {
    const header = randomHeader(next);
    const got = parseBearer(header);
    if (got === null) continue;
    assert.ok(/^[ \t]*bearer[ \t]/i.test(header), `accepted a header without the Bearer scheme: ${JSON.stringify(header)}`);
    assert.ok(got.length > 0 && got.length <= MAX_CREDENTIAL, `length ${got.length}`);
    assert.ok(![...got].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f), `control character in ${JSON.stringify(got)}`);
    assert.equal(got, got.replace(/^[ \t]+|[ \t]+$/g, ''), 'no surrounding blanks');
    assert.ok(header.includes(got), 'the credential is a substring of the header');
  }
});

test('parseBearer round-trips every printable credential, whatever the scheme case and spacing', () => {
  const next = rng(42);
  for (let i = 0; i < 5_000; i++) {
    let cred = '';
    const n = 1 + Math.floor(next() * 80);
    for (let j = 0; j < n; j++) cred += String.fromCharCode(0x21 + Math.floor(next() * 94));
    if (next() < 0.2) cred = `${cred} ${cred}`; // an admin secret may be a phrase
    const scheme = ['Bearer', 'bearer', 'BEARER', 'bEaReR'][i % 4];
    const space = [' ', '  ', '\t', ' \t '][Math.floor(next() * 4)];
    assert.equal(parseBearer(`${scheme}${space}${cred}${next() < 0.3 ? ' ' : ''}`), cred);
  }
});

test('parseBearer refuses other schemes, empty and oversized credentials', () => {
  for (const h of [undefined, null, '', 'Bearer', 'Bearer ', 'Bearer    ', 'Basic dXNlcjpwYXNz', 'Bearerx', 'Token abc', 'Bearer a\nb', 'Bearer a\0b', `Bearer ${'x'.repeat(MAX_CREDENTIAL + 1)}`]) {
    assert.equal(parseBearer(h), null, JSON.stringify(h));
  }
  assert.equal(parseBearer(`Bearer ${'x'.repeat(MAX_CREDENTIAL)}`)?.length, MAX_CREDENTIAL);
});
