import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDocumentText } from '../../../stacks/document.js';
import { DEFAULT_PARSER_LIMITS, DocumentParser } from '../../../stacks/parse-worker/parser.js';
import { SvcError } from '../../../state/errors.js';
import { bigYamlStack } from '../../helpers/big-stack.js';

const big = bigYamlStack(5000); // 800 KB
const medium = bigYamlStack(1500); // 240 KB: over the 64 KiB inline threshold, cheap enough to parse twice

/** Timers whose callbacks the test fires itself. */
function manualTimers() {
  const pending: (() => void)[] = [];
  return { pending, setTimer: (_ms: number, fn: () => void) => (pending.push(fn), () => pending.splice(pending.indexOf(fn), 1)) };
}

test('a large YAML stack parses in the worker: the event loop keeps running, positions match an inline parse', async () => {
  const parser = new DocumentParser();
  let ticks = 0;
  const ticker = setInterval(() => ticks++, 5);
  try {
    const doc = await parser.parse(medium, 'yaml', 'big.yaml');
    clearInterval(ticker);
    // An inline parse blocks for its whole duration (hundreds of ms): no tick could fire.
    assert.ok(ticks >= 5, `the loop ticked ${ticks} times during the parse`);
    const inline = parseDocumentText(medium, 'yaml', 'big.yaml');
    assert.deepEqual(doc.value, inline.value);
    for (const path of [['services'], ['services', 0], ['services', 1234], ['services', 1234, 'name'], ['services', 1499, 'env', 'B'], ['prune']]) {
      assert.deepEqual(doc.locate(path), inline.locate(path), path.join('.'));
    }
    assert.equal(doc.locate(['services', 1, 'nope']), null);
    assert.equal(doc.formatPosition({ line: 3, column: 5 }), 'big.yaml:3:5');
  } finally {
    clearInterval(ticker);
    await parser.close();
  }
});

test('worker parse errors are the same 400s as inline ones', async () => {
  const parser = new DocumentParser();
  try {
    const broken = `${medium}  - name: [\n`;
    await assert.rejects(parser.parse(broken, 'yaml', 'b.yaml'), (err: SvcError) => {
      assert.equal(err.code, 'SVC_INVALID');
      assert.throws(() => parseDocumentText(broken, 'yaml', 'b.yaml'), { message: err.message });
      return true;
    });
  } finally {
    await parser.close();
  }
});

test('a document that needs more heap than the cap is a 413, and the next parse works', async () => {
  const parser = new DocumentParser({ ...DEFAULT_PARSER_LIMITS, heapMb: 16 });
  try {
    await assert.rejects(parser.parse(big, 'yaml', 'big.yaml'), (err: SvcError) => err.code === 'SVC_TOO_LARGE' && err.message === 'big.yaml: needs more than 16 MiB to parse; split the stack');
    const small = await parser.parse(bigYamlStack(450), 'yaml', 'small.yaml');
    assert.equal((small.value as { services: unknown[] }).services.length, 450);
  } finally {
    await parser.close();
  }
});

test('a parse past the deadline is stopped with a 413; past the queue limit a 503', async () => {
  const timers = manualTimers();
  const parser = new DocumentParser({ ...DEFAULT_PARSER_LIMITS, maxWaiting: 0 }, timers);
  try {
    const slow = parser.parse(big, 'yaml', 'slow.yaml');
    await assert.rejects(parser.parse(big, 'yaml', 'second.yaml'), (err: SvcError) => err.code === 'SVC_UNAVAILABLE' && /busy/.test(err.message));
    await new Promise((r) => setImmediate(r)); // the queued parse has started and armed its deadline
    assert.equal(timers.pending.length, 1);
    timers.pending[0]?.();
    await assert.rejects(slow, (err: SvcError) => err.code === 'SVC_TOO_LARGE' && err.message === 'slow.yaml: took longer than 120 s to parse; split the stack');
  } finally {
    await parser.close();
  }
});
