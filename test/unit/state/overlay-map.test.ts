import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OverlayMap } from '../../../state/overlay-map.js';

void test('OverlayMap answers as a copy of its base would, and never changes the base (random operations)', () => {
  let seed = 7;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  for (let round = 0; round < 500; round++) {
    const base = new Map<number, string>();
    for (let i = 0; i < 8; i++) if (rnd() < 0.5) base.set(i, `b${i}`);
    const frozen = [...base];
    const copy = new Map(base);
    const overlay = new OverlayMap(base);
    for (let op = 0; op < 12; op++) {
      const key = Math.floor(rnd() * 10);
      if (rnd() < 0.5) {
        assert.equal(overlay.delete(key), copy.delete(key), `delete ${key}`);
      } else {
        overlay.set(key, `v${round}.${op}`);
        copy.set(key, `v${round}.${op}`);
      }
      for (let k = 0; k < 10; k++) {
        assert.equal(overlay.get(k), copy.get(k));
        assert.equal(overlay.has(k), copy.has(k));
      }
      assert.equal(overlay.size, copy.size);
      assert.deepEqual(new Map(overlay), copy);
      assert.deepEqual([...overlay.keys()].sort(), [...copy.keys()].sort());
      // What differs from the base is among the changed keys (write-view.ts builds its change from them).
      const changed = new Set(overlay.changedKeys());
      for (let k = 0; k < 10; k++) if (base.get(k) !== copy.get(k)) assert.ok(changed.has(k), `key ${k} changed`);
    }
    assert.deepEqual([...base], frozen, 'the base is untouched');
  }
});
