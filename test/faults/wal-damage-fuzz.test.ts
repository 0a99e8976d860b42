import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProgramStore, StoreOpenError } from '../../state/store.js';
import { walFiles } from '../helpers/level-damage.js';

/** SVC_FAULTS_LONG=1 tries many more damage patterns (minutes instead of seconds). */
const ROUNDS = process.env.SVC_FAULTS_LONG === '1' ? 400 : 24;
const PROGRAMS = 40;

/** A small deterministic PRNG (mulberry32), so that a failing round can be replayed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Finding 11, fuzzed: whatever bytes of the state store's log are damaged (a flipped bit, a
 * zeroed run, garbage, a truncation), svcd never loses a program silently: it refuses to open
 * (naming the file, or the programs lost), or it opens with every program (loaded or
 * quarantined by name).
 */
void test(`damaging the state store log anywhere never loses programs silently (${ROUNDS} rounds)`, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-wal-fuzz-'));
  try {
    const pristine = join(dir, 'pristine');
    const store = await ProgramStore.open(pristine);
    for (let i = 0; i < PROGRAMS; i++) await store.create([{ name: `p${i}`, command: 'node', args: ['-e', `/* program ${i} ${'x'.repeat(i * 40)} */`] }]);
    await store.close();
    const logName = walFiles(join(pristine, 'state.db'))[0].split('/').pop()!;
    const size = statSync(join(pristine, 'state.db', logName)).size;
    const outcomes = { refused: 0, complete: 0, reported: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      const random = prng(round + 1);
      const work = join(dir, `round-${round}`);
      cpSync(pristine, work, { recursive: true });
      const log = join(work, 'state.db', logName);
      const bytes = readFileSync(log);
      const at = Math.floor(random() * size);
      const how = round % 4;
      if (how === 0) bytes[at] ^= 1 << Math.floor(random() * 8);
      else if (how === 1) bytes.fill(0, at, at + 1 + Math.floor(random() * 64));
      else if (how === 2) for (let i = at; i < Math.min(size, at + 16); i++) bytes[i] = Math.floor(random() * 256);
      writeFileSync(log, how === 3 ? bytes.subarray(0, at) : bytes);
      const what = `round ${round} (${['bit flip', 'zeroed run', 'garbage', 'truncation'][how]} at byte ${at} of ${size})`;
      try {
        const opened = await ProgramStore.open(work);
        const kept = opened.list().length;
        const { recovered_at_open: report, quarantined } = opened.report();
        await opened.close();
        // Every program is loaded, or quarantined by name; a lost intent change is reported.
        assert.equal(kept + quarantined.length, PROGRAMS, `${what}: ${PROGRAMS - kept} programs lost without a refusal`);
        if (kept === PROGRAMS && report === null) outcomes.complete++;
        else outcomes.reported++;
      } catch (err) {
        assert.ok(err instanceof StoreOpenError, `${what}: ${String(err)}`);
        assert.match(err.message, new RegExp(`${logName} at byte \\d+|has lost \\d+ program\\(s\\) it had acknowledged: 'p\\d+'`), what);
        outcomes.refused++;
      }
      rmSync(work, { recursive: true, force: true });
    }
    assert.equal(outcomes.refused + outcomes.complete + outcomes.reported, ROUNDS);
    assert.ok(outcomes.refused > 0, `some damage is refused: ${JSON.stringify(outcomes)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
