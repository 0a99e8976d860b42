import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadRepoStack, preparseRepoStack, repoFiles } from '../../../../stacks/git/repo-stack.js';
import { DEFAULT_PARSER_LIMITS, DocumentParser } from '../../../../stacks/parse-worker/parser.js';
import { validateServices } from '../../../../stacks/validate-stack.js';

const layout = { path: 'deploy', host: 'alpha', source: 'git:fleet' };
const configs = (files: Record<string, string>, l = layout) =>
  validateServices(loadRepoStack(new Map(Object.entries(files)), l), { logDir: '/logs', source: l.source }).map((d) => d.config);

test('repoFiles: base/ and this host overlay; other hosts, sub-folders and non-stacks are left out', () => {
  const files = ['deploy/base/a.toml', 'deploy/base/lib/x.toml', 'deploy/hosts/alpha/a.toml', 'deploy/hosts/beta/a.toml', 'deploy/README.md', 'other/base/z.toml'];
  assert.deepEqual(repoFiles(files, layout), { base: ['deploy/base/a.toml'], overlays: ['deploy/hosts/alpha/a.toml'] });
  assert.deepEqual(repoFiles(['a.toml', 'b.yaml', 'c.txt', 'lib/d.toml'], { ...layout, path: '' }), { base: ['a.toml', 'b.yaml'], overlays: [] });
});

test('overlays override fields by program name and add programs; every program is git:<name>', () => {
  const got = configs({
    'deploy/base/apps.toml': '[[services]]\nname = "web"\ncommand = "web"\nenv = { ROLE = "base" }\nsource = "mine"\n[[services]]\nname = "db"\ncommand = "db"\n',
    'deploy/hosts/alpha/apps.toml': '[[services]]\nname = "web"\nenv = { ROLE = "alpha" }\n[[services]]\nname = "extra"\ncommand = "x"\n',
    'deploy/hosts/beta/apps.toml': '[[services]]\nname = "db"\ncommand = "other"\n',
  });
  assert.deepEqual(
    got.map((c) => [c.name, c.command, c.env ? { ...c.env } : undefined, c.source]),
    [
      ['web', 'web', { ROLE: 'alpha' }, 'git:fleet'],
      ['db', 'db', undefined, 'git:fleet'],
      ['extra', 'x', undefined, 'git:fleet'],
    ],
  );
});

test("a name overlaid twice in this host's folder is refused at its place, not merged silently", () => {
  const base = { 'deploy/base/apps.toml': '[[services]]\nname = "web"\ncommand = "web"\n' };
  assert.throws(
    () => configs({ ...base, 'deploy/hosts/alpha/a.toml': '[[services]]\nname = "web"\nenv = { A = "1" }\n', 'deploy/hosts/alpha/b.toml': '[[services]]\nname = "web"\nenv = { A = "2" }\n' }),
    /^SvcError: deploy\/hosts\/alpha\/b\.toml:2:1: services\[0\] \(name=web\): name: given twice in this host's overlays \(first at deploy\/hosts\/alpha\/a\.toml:2:1\)$/,
  );
  assert.throws(() => configs({ 'deploy/hosts/alpha/a.toml': '[[services]]\nname = "new"\ncommand = "x"\n[[services]]\nname = "new"\ncommand = "y"\n' }), /a\.toml:5:1: services\[1\] \(name=new\): name: given twice/);
});

test('a problem in a base field of an overlaid service is placed in the base file, one in an overlaid field in the overlay', () => {
  const files = {
    'deploy/base/apps.toml': '[[services]]\nname = "web"\ncommand = "web"\nstopsecs = -1\n',
    'deploy/hosts/alpha/apps.toml': '# alpha\n[[services]]\nname = "web"\nenv = { ROLE = "alpha" }\nstartsecs = -1\n',
  };
  assert.throws(() => configs(files), (err: Error) => {
    const lines = err.message.split('\n');
    assert.ok(lines.some((l) => /^deploy\/base\/apps\.toml:4:1: services\[0\] \(name=web\): stopsecs/.test(l)), err.message);
    assert.ok(lines.some((l) => /^deploy\/hosts\/alpha\/apps\.toml:5:1: services\[0\] \(name=web\): startsecs/.test(l)), err.message);
    return true;
  });
});

test('includes resolve inside the commit; errors name the file in the repository with line and column', () => {
  const got = configs({ 'deploy/base/a.toml': 'include = ["lib/common.toml"]\n[[services]]\nname = "a"\ncommand = "a"\n', 'deploy/base/lib/common.toml': '[[services]]\nname = "c"\ncommand = "c"\n' });
  assert.deepEqual(got.map((c) => `${c.name}<${c.source}>`), ['c<git:fleet>', 'a<git:fleet>']);
  assert.throws(() => configs({ 'deploy/base/a.toml': '[[services]]\nname = "a"\ncommand = \n' }), /^SvcError: deploy\/base\/a\.toml:3:\d+: /);
  assert.throws(() => configs({ 'deploy/base/a.toml': '[[services]]\nname = "a"\ncommand = "a"\nbogus = 1\n' }), /deploy\/base\/a\.toml:4:1/);
  assert.throws(() => configs({ 'deploy/hosts/alpha/a.toml': '[[services]]\nname = "a"\ncommand = "a"\nmax_concurrent = 1000\n' }), /deploy\/hosts\/alpha\/a\.toml:4:1: services\[0\] \(name=a\): max_concurrent/);
});

test('a commit with no stack file at all is refused (an accidental wipe does not prune a fleet)', () => {
  assert.throws(() => configs({ 'deploy/README.md': 'x' }), /deploy: no stack files/);
  assert.deepEqual(configs({ 'deploy/base/empty.toml': 'services = []\n' }), []);
});

test('parsed ahead through the worker, a commit reports the same places as parsed inline, a base file that another includes too', async () => {
  const files = new Map(Object.entries({
    'deploy/base/a.toml': 'include = ["b.toml"]\n[[services]]\nname = "a"\ncommand = "a"\n',
    'deploy/base/b.toml': '[[services]]\nname = "b"\ncommand = 3\n',
  }));
  const problem = (preparsed?: Parameters<typeof loadRepoStack>[2]) => {
    try {
      validateServices(loadRepoStack(files, layout, preparsed), { logDir: '/logs', source: layout.source });
      return 'no error';
    } catch (err) {
      return (err as Error).message;
    }
  };
  const parser = new DocumentParser({ ...DEFAULT_PARSER_LIMITS, inlineBelow: 0 });
  try {
    const inline = problem();
    assert.match(inline, /command: /);
    assert.equal(problem(await preparseRepoStack(files, layout, parser)), inline);
  } finally {
    await parser.close();
  }
});
