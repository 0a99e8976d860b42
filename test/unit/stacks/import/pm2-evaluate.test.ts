import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SvcError } from '../../../../state/errors.js';
import { evaluateEcosystem } from '../../../../stacks/import/pm2/evaluate.js';

const evaluate = (code: string, env: Record<string, string> = {}) => evaluateEcosystem(code, '/srv/app/ecosystem.config.js', 'ecosystem.config.js', env);
const refusal = (code: string) => {
  try {
    evaluate(code);
  } catch (err) {
    assert.ok(err instanceof SvcError, String(err));
    return err.message;
  }
  return 'no error';
};

test('an ecosystem file sees module, exports, process.env (a copy), __dirname and __filename only', () => {
  const { value } = evaluate(
    `const port = Number(process.env.PORT) + 1;
     process.env.CHANGED = 'x';
     exports.apps = [{ name: 'web', script: __dirname + '/server.js', env: { PORT: port, FILE: __filename } }];
     module.exports.kinds = [typeof require, typeof setTimeout, typeof fetch, typeof globalThis.process.exit];`,
    { PORT: '3000' },
  );
  assert.deepEqual(value, {
    apps: [{ name: 'web', script: '/srv/app/server.js', env: { PORT: 3001, FILE: '/srv/app/ecosystem.config.js' } }],
    kinds: ['undefined', 'undefined', 'undefined', 'undefined'],
  });
});

test('the file cannot reach this process: no host objects, no eval, no Function from strings', () => {
  assert.match(refusal('module.exports = this.constructor.constructor("return process")()'), /EvalError: Code generation from strings disallowed/);
  assert.match(refusal('module.exports = eval("1 + 1")'), /EvalError/);
  assert.match(refusal('module.exports = (() => {}).constructor("return 1")()'), /EvalError/);
  assert.match(refusal('const fs = require("fs")'), /^ecosystem\.config\.js:1:\d+: ReferenceError: require is not defined \(svc import evaluates ecosystem\.config\.js without require\(\)/);
});

test('a file that never finishes is stopped; a thrown value is reported without running its code', () => {
  assert.match(refusal('while (true) {}'), /^ecosystem\.config\.js: evaluation stopped after 2000 ms/);
  assert.match(refusal('\n\nthrow new TypeError("bad config")'), /^ecosystem\.config\.js:3:7: TypeError: bad config$/);
  const sneaky = refusal('throw { get message() { while (true) {} } }');
  assert.match(sneaky, /the file threw a value that is not an Error/);
  assert.match(refusal('throw new Proxy({}, { getOwnPropertyDescriptor() { while (true) {} } })'), /not an Error/);
});

test('values JSON cannot carry are listed, with their path, for the report', () => {
  const { value, dropped } = evaluate('module.exports = { apps: [{ name: "a", script: "a.js", pre: function () {}, list: [undefined] }] }');
  assert.deepEqual(value, { apps: [{ name: 'a', script: 'a.js', list: [null] }] });
  assert.deepEqual(dropped, [
    { path: ['apps', 0, 'pre'], type: 'function' },
    { path: ['apps', 0, 'list', 0], type: 'undefined' },
  ]);
});

test('ES module syntax gets a hint', () => {
  assert.match(refusal('export default { apps: [] }'), /^ecosystem\.config\.js:1:\d+: SyntaxError: .*use module\.exports/);
});
