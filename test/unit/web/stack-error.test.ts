import { test } from 'node:test';
import assert from 'node:assert/strict';
import { placeRange, stackErrorParts, stackFileLabel } from '../../../web/src/logic/stack-error.js';

test('the name svcd gives the text: the file of a stack:<file> source, else stack.<format>', () => {
  assert.equal(stackFileLabel('stack:dashboard', 'toml'), 'stack.toml');
  assert.equal(stackFileLabel('stack:web.yml', 'yaml'), 'web.yml');
  assert.equal(stackFileLabel('ops', 'yaml'), 'stack.yaml');
});

test('a message is cut at each place it names in that text; other text stays as it is', () => {
  const msg = "services[0] (name=a): bogus: unknown field at stack.toml:4:1\nservices[1] (name=b): stopsecs: must be >= 0";
  assert.deepEqual(stackErrorParts(msg, 'stack.toml'), ['services[0] (name=a): bogus: unknown field at ', { line: 4, column: 1 }, "\nservices[1] (name=b): stopsecs: must be >= 0"]);
  assert.deepEqual(stackErrorParts('stack.yaml:12:3: bad indentation', 'stack.yaml'), [{ line: 12, column: 3 }, ': bad indentation']);
  assert.deepEqual(stackErrorParts('JSON line 1 column 47: property name expected', 'stack.json'), [{ line: 1, column: 47 }, ': property name expected']);
  // Another file's place (an include named in the message) is not the editor's text.
  assert.deepEqual(stackErrorParts('other.toml:2:1: x', 'stack.toml'), ['other.toml:2:1: x']);
  assert.deepEqual(stackErrorParts('mine.toml:2:1: x', 'mine.toml'), [{ line: 2, column: 1 }, ': x']);
});

test('a place is the rest of its line from its column; past the end, the end', () => {
  const text = 'a = 1\nbad line\nlast';
  assert.deepEqual(placeRange(text, { line: 2, column: 5 }), { start: 10, end: 14 });
  assert.equal(text.slice(10, 14), 'line');
  assert.deepEqual(placeRange(text, { line: 3, column: 1 }), { start: 15, end: 19 });
  assert.deepEqual(placeRange(text, { line: 2, column: 99 }), { start: 14, end: 14 });
  assert.deepEqual(placeRange(text, { line: 9, column: 1 }), { start: 19, end: 19 });
});
