import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { checkStackFile } from '../../../stacks/check.js';
import { loadStackFile, loadStackText } from '../../../stacks/load.js';
import { checkStackDependencies, validateServices } from '../../../stacks/validate-stack.js';
import { SvcError } from '../../../state/errors.js';

/** An in-memory folder of files for the loader (paths relative to /stacks). */
const files = (map: Record<string, string>) => (path: string) => {
  const text = map[path.replace(/^\/stacks\//, '')];
  if (text === undefined) throw Object.assign(new Error('missing'), { code: 'ENOENT' });
  return text;
};
const message = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof SvcError, String(err));
    return err.message;
  }
  return 'no error';
};
const ctx = { logDir: '/var/log/svc', source: 'stack:api' };

test('JSON, TOML and YAML bodies load to the same services', () => {
  const json = loadStackText('{"prune":true,"services":[{"name":"web","command":"run"}]}', 'json');
  const toml = loadStackText('prune = true\n[[services]]\nname = "web"\ncommand = "run"\n', 'toml');
  const yaml = loadStackText('prune: true\nservices:\n  - name: web\n    command: run\n', 'yaml');
  for (const s of [json, toml, yaml]) {
    assert.equal(s.prune, true);
    assert.deepEqual(validateServices(s, ctx).map((d) => d.config), [{ name: 'web', command: 'run', source: 'stack:api' }]);
  }
});

test('validation names services[i] (name=x) and the field; unknown fields carry their position', () => {
  const stack = loadStackText('{"services":[{"name":"ok","command":"x"},{"name":"web","command":"x","max_concurrent":99}]}', 'json');
  assert.equal(message(() => validateServices(stack, ctx)), 'services[1] (name=web): max_concurrent: must be <= 64');
  const toml = loadStackText('[[services]]\nname = "web"\ncommand = "x"\nbogus = 1\n', 'toml', 'web.toml');
  assert.equal(message(() => validateServices(toml, ctx)), 'services[0] (name=web): bogus: unknown field at web.toml:4:1');
  assert.match(message(() => loadStackText('{"services": [', 'json')), /^JSON line 1 column 15: /);
  assert.match(message(() => loadStackText('[[services]]\nname = \n', 'toml', 'web.toml')), /^web\.toml:2:\d+: /);
  assert.match(message(() => loadStackText('services:\n  - name: [\n', 'yaml', 'web.yaml')), /^web\.yaml:\d+:\d+: /);
  assert.match(message(() => loadStackText('{"services":[],"extra":1}', 'json')), /^extra: unknown field at JSON line 1 column 16/);
});

test('duplicate names are refused naming both indexes', () => {
  const stack = loadStackText('{"services":[{"name":"a","command":"x"},{"name":"b","command":"x"},{"name":"a","command":"y"}]}', 'json');
  assert.equal(message(() => validateServices(stack, ctx)), 'services[2] (name=a): name: duplicate of services[0] (names must be unique in a stack)');
});

test('depends_on may name stack services or existing programs; unknown names and cycles are refused', () => {
  const stack = loadStackText('{"services":[{"name":"api","command":"x","depends_on":["db","cache"]},{"name":"db","command":"x"}]}', 'json');
  const desired = validateServices(stack, ctx);
  checkStackDependencies(desired, [{ name: 'cache', command: 'x' }]);
  assert.equal(message(() => checkStackDependencies(desired, [])), 'services[0] (name=api): depends_on: unknown service(s): cache');
  const cyclic = validateServices(loadStackText('{"services":[{"name":"a","command":"x","depends_on":["b"]},{"name":"b","command":"x","depends_on":["a"]}]}', 'json'), ctx);
  assert.equal(message(() => checkStackDependencies(cyclic, [])), 'services[0] (name=a): depends_on: dependency cycle detected: a -> b -> a');
});

test('includes: services of included files get source include:<file>; positions name the file', () => {
  const read = files({
    'main.toml': 'include = ["lib/common.toml"]\n[[services]]\nname = "web"\ncommand = "x"\ndepends_on = ["db"]\n',
    'lib/common.toml': '[[services]]\nname = "db"\ncommand = "x"\n',
  });
  const stack = loadStackFile('/stacks/main.toml', read, 'main.toml');
  assert.deepEqual(stack.includes, ['lib/common.toml']);
  const desired = validateServices(stack, ctx);
  assert.deepEqual(desired.map((d) => [d.config.name, d.config.source]), [['db', 'include:lib/common.toml'], ['web', 'stack:api']]);
  const bad = files({ 'main.toml': 'include = ["lib.yaml"]\n', 'lib.yaml': 'services:\n  - name: db\n    commnd: x\n' });
  // Each problem on its own line, at its field's place (a missing field: its service's).
  assert.equal(message(() => validateServices(loadStackFile('/stacks/main.toml', bad), ctx)), 'lib.yaml:2:5: services[0] (name=db): command: is required\nlib.yaml:3:5: services[0] (name=db): commnd: unknown field');
});

test('include cycles are refused naming the chain', () => {
  const read = files({ 'a.toml': 'include = ["b.toml"]\n', 'b.toml': 'include = ["c.json"]\n', 'c.json': '{"include": ["a.toml"]}' });
  // At the include that closes the cycle.
  assert.equal(message(() => loadStackFile('/stacks/a.toml', read, 'a.toml')), 'c.json:1:14: include: cycle detected: a.toml -> b.toml -> c.json -> a.toml');
});

test('services of a TOML inline list are named at the list (the locator finds [[services]] headers only), not at no place', () => {
  const read = files({ 'inl.toml': '# inline\nservices = [\n  { name = "z", command = "x", bogus = 1 },\n  { name = "y" },\n]\n' });
  assert.deepEqual(checkStackFile('/stacks/inl.toml', read).errors, ['/stacks/inl.toml:2:1: services[0] (name=z): bogus: unknown field', '/stacks/inl.toml:2:1: services[1] (name=y): command: is required']);
});

test('an include that cannot be had is refused at its place in the including file', () => {
  const read = files({ 'a.toml': '# shared\ninclude = ["lib/missing.toml"]\n', 'b.yaml': 'include:\n  - c.toml\n  - lib/x.txt\n', 'c.toml': 'services = []\n' });
  assert.equal(message(() => loadStackFile('/stacks/a.toml', read, 'a.toml')), 'a.toml:2:1: include: lib/missing.toml: cannot read: ENOENT');
  assert.equal(message(() => loadStackFile('/stacks/b.yaml', read, 'b.yaml')), 'b.yaml:3:5: include: lib/x.txt: unknown format (use .json, .toml, .yaml or .yml)');
});

test('offline check: JSON positions become path:line:col; outside depends_on is a warning', () => {
  const read = files({ 'bad.json': '{\n  "services": [\n    {"name": "x", "command": 1}\n  ]\n}', 'syntax.json': '{\n  "services": [,]\n}', 'ok.yaml': 'services:\n  - name: a\n    command: x\n    depends_on: [ext]\n' });
  const bad = checkStackFile(resolve('/stacks/bad.json'), read);
  assert.deepEqual(bad.errors, ['/stacks/bad.json:3:19: services[0] (name=x): command: must be string'], 'the place of the field');
  assert.match(checkStackFile('/stacks/syntax.json', read).errors[0] ?? '', /^\/stacks\/syntax\.json:2:16: /);
  const ok = checkStackFile('/stacks/ok.yaml', read);
  assert.deepEqual(ok.errors, []);
  assert.equal(ok.services, 1);
  assert.match(ok.warnings[0] ?? '', /depends_on: not in this stack \(must exist in the daemon\): ext/);
});

test('an empty stack file is refused in every format, as an empty request body is', () => {
  for (const name of ['a.toml', 'a.json', 'a.yaml']) {
    const read = files({ [name]: ' \n' });
    assert.match(message(() => loadStackFile(`/stacks/${name}`, read, name)), new RegExp(`^${name.replace('.', '\\.')}: the file is empty: a stack document is required`));
  }
  const included = files({ 'main.toml': 'include = ["lib.toml"]\n', 'lib.toml': '' });
  assert.match(message(() => loadStackFile('/stacks/main.toml', included, 'main.toml')), /^lib\.toml: the file is empty/);
  assert.equal(loadStackFile('/stacks/e.toml', files({ 'e.toml': 'services = []\n' }), 'e.toml').services.length, 0);
});

test('TOML: a field in a sub-table of a service ([services.env], [services.health_check]) or under a dotted key is located at its own line', () => {
  const text = [
    '[[services]]', //                        1
    'name = "ok"', //                         2
    'command = "x"', //                       3
    '[services.env]', //                      4
    'A = "1"', //                             5
    '', //                                    6
    '[[services]]', //                        7
    'name = "web"', //                        8
    'command = "x"', //                       9
    'hooks.pre_start = 5', //                 10
    '', //                                    11
    '[services.env]', //                      12
    'A = "1"', //                             13
    'PORT = 8080', //                         14
    '', //                                    15
    '[services.health_check]', //             16
    'type = "http"', //                       17
    'url = "notaurl"', //                     18
    'bogus = 1', //                           19
    '', //                                    20
    '[[services]]', //                        21
    'name = "db"', //                         22
    'command = "x"', //                       23
    'resource_limits = { memory_limit = "x" }', // 24
  ].join('\n');
  const stack = loadStackFile('/stacks/web.toml', files({ 'web.toml': text }), 'web.toml');
  assert.deepEqual(message(() => validateServices(stack, ctx)).split('\n'), [
    'web.toml:10:1: services[1] (name=web): hooks.pre_start: must be string',
    'web.toml:14:1: services[1] (name=web): env.PORT: must be string',
    'web.toml:18:1: services[1] (name=web): health_check.url: must be an http:// or https:// URL',
    'web.toml:19:1: services[1] (name=web): health_check.bogus: unknown field',
    'web.toml:24:1: services[2] (name=db): resource_limits.memory_limit: must be a number of bytes, at least 4096 (536870912 for 512 MiB; a unit such as 512M is not read)',
  ]);
});

test('YAML merge keys (<<: *anchor) share fields between services; a bad merge source is refused', () => {
  const stack = loadStackText('services:\n  - &base\n    name: web\n    command: run\n    env: { A: "1" }\n  - <<: *base\n    name: web2\n', 'yaml', 'web.yaml');
  assert.deepEqual(
    validateServices(stack, ctx).map((d) => d.config),
    [
      { name: 'web', command: 'run', env: { A: '1' }, source: 'stack:api' },
      { name: 'web2', command: 'run', env: { A: '1' }, source: 'stack:api' },
    ],
  );
  assert.match(message(() => loadStackText('services:\n  - <<: 5\n    name: x\n', 'yaml', 'web.yaml')), /^web\.yaml: Merge sources must be maps/);
});

test('depends_on problems of a file (cycle, unknown name, outside the stack) are placed at the depends_on line, as the field problems are', () => {
  const read = files({
    'cycle.toml': '[[services]]\nname = "c1"\ncommand = "x"\ndepends_on = ["c2"]\n\n[[services]]\nname = "c2"\ncommand = "x"\ndepends_on = ["c1"]\n',
    'ext.yaml': 'services:\n  - name: a\n    command: x\n    depends_on: [ext]\n',
  });
  assert.deepEqual(checkStackFile('/stacks/cycle.toml', read).errors, ['/stacks/cycle.toml:4:1: services[0] (name=c1): depends_on: dependency cycle detected: c1 -> c2 -> c1']);
  assert.deepEqual(checkStackFile('/stacks/ext.yaml', read).warnings, ['/stacks/ext.yaml:4:5: services[0] (name=a): depends_on: not in this stack (must exist in the daemon): ext']);
  // The watched directory judges it against the daemon's programs, at the same place.
  const desired = validateServices(loadStackFile('/stacks/ext.yaml', read, 'ext.yaml'), ctx);
  assert.equal(message(() => checkStackDependencies(desired, [])), 'ext.yaml:4:5: services[0] (name=a): depends_on: unknown service(s): ext');
});

test('several problems of one service are listed in the order of the file, as a compiler lists them', () => {
  // The schema checks stopsecs before priority; the file has priority first.
  const read = files({ 'multi.toml': '[[services]]\nname = "a"\ncommand = "x"\npriority = "high"\nstopsecs = -1\n' });
  assert.deepEqual(checkStackFile('/stacks/multi.toml', read).errors, [
    '/stacks/multi.toml:4:1: services[0] (name=a): priority: must be integer',
    '/stacks/multi.toml:5:1: services[0] (name=a): stopsecs: must be >= 0',
  ]);
});
