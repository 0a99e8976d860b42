import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { gitCli } from '../../../../stacks/git/git-cli.js';
import { eventually, removeRoot, tempRoot } from '../../../helpers/daemon.js';
import { createRepo, gitSourceConfig } from '../../../helpers/git-repo.js';

// The real git against a server that accepts connections and never answers.
const work = tempRoot('svc-git-cli-');
const held: Socket[] = [];
let server: Server;
after(() => {
  for (const s of held) s.destroy();
  server?.close();
  removeRoot(work);
});

async function silentServer(): Promise<number> {
  server = createServer((s) => held.push(s));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as { port: number }).port;
}

const source = (name: string, url: string) => gitSourceConfig({ name, url });

/** Pids of the processes whose command line names `needle` (git, git-remote-http). */
function processesNaming(needle: string): number[] {
  const pids: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (readFileSync(join('/proc', d, 'cmdline'), 'utf8').includes(needle)) pids.push(Number(d));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

test('a fetch from a server that never answers times out, says so, and leaves none of its processes', async () => {
  const port = await silentServer();
  const url = `http://127.0.0.1:${port}/timeout.git`;
  const git = gitCli(join(work, 'cache-a'), { timeoutMs: 500 });
  await assert.rejects(git.fetch(source('timeout', url)), /git fetch: no answer within 1 s \(timed out; is the remote reachable\?\)/);
  await eventually(() => processesNaming(url).length === 0, 10_000, `no process left for ${url} (left: ${processesNaming(url).join(', ')})`);
});

test('close() ends a fetch under way with its remote helper, and later commands fail at once', async () => {
  const port = server ? (server.address() as { port: number }).port : await silentServer();
  const url = `http://127.0.0.1:${port}/closed.git`;
  const git = gitCli(join(work, 'cache-b'), { timeoutMs: 600_000 });
  const fetching = git.fetch(source('closed', url));
  await eventually(() => processesNaming(url).length >= 2, 10_000, 'git and its remote helper running');
  git.close();
  await assert.rejects(fetching, /git fetch: svcd is stopping/);
  await eventually(() => processesNaming(url).length === 0, 10_000, `no process left for ${url} (left: ${processesNaming(url).join(', ')})`);
  await assert.rejects(git.fetch(source('closed', url)), /svcd is stopping/);
});

test('lock files a killed git left in the cache do not stop later fetches', async () => {
  const remote = createRepo(join(work, 'remotes'), 'locked');
  remote.write('a.toml', '[[services]]\nname = "a"\ncommand = "run"\n');
  const first = remote.commit('first');
  const cacheDir = join(work, 'cache-c');
  const git = gitCli(cacheDir);
  const src = source('locked', remote.url);
  assert.equal(await git.fetch(src), first);
  // What svcd killed -9 during a fetch leaves behind.
  writeFileSync(join(cacheDir, 'locked.git', 'refs', 'svc', 'head.lock'), '');
  writeFileSync(join(cacheDir, 'locked.git', 'packed-refs.lock'), '');
  writeFileSync(join(cacheDir, 'locked.git', 'config.lock'), '');
  remote.write('a.toml', '[[services]]\nname = "a"\ncommand = "run2"\n');
  const second = remote.commit('second');
  assert.equal(await git.fetch(src), second);
});

test('snapshot: symbolic links inside the commit are followed; links out of it, submodules and files over the size limit are refused by name', async () => {
  const remote = createRepo(join(work, 'remotes'), 'shapes');
  const git = gitCli(join(work, 'cache-d'), { maxFileBytes: 2048 });
  const src = { ...source('shapes', remote.url), path: 'svc' };
  const a = '[[services]]\nname = "a"\ncommand = "run"\n';
  const common = '[[services]]\nname = "common"\ncommand = "run"\n';
  remote.write('svc/base/a.toml', a);
  remote.write('lib/common.toml', common);
  symlinkSync('../../lib/common.toml', join(remote.work, 'svc/base/common.toml'));
  const inside = remote.commit('a link inside the repository');
  await git.fetch(src);
  const files = await git.snapshot(src, inside);
  assert.deepEqual([...files.keys()].sort(), ['svc/base/a.toml', 'svc/base/common.toml']);
  assert.equal(files.get('svc/base/common.toml'), common, 'the file the link points at, not the link text');

  symlinkSync('/etc/passwd', join(remote.work, 'svc/base/passwd.toml'));
  const out = remote.commit('a link out of the repository');
  await git.fetch(src);
  await assert.rejects(git.snapshot(src, out), /svc\/base\/passwd\.toml: a symbolic link to \/etc\/passwd, outside the repository \(commit the file itself\)/);

  remote.remove('svc/base/passwd.toml');
  mkdirSync(join(remote.work, 'svc/base/sub.toml'));
  remote.git('update-index', '--add', '--cacheinfo', `160000,${inside},svc/base/sub.toml`);
  const sub = remote.commit('a submodule named like a stack file');
  await git.fetch(src);
  await assert.rejects(git.snapshot(src, sub), /svc\/base\/sub\.toml: not a file of the commit \(a submodule\?\)/);

  remote.git('rm', '--cached', '--quiet', 'svc/base/sub.toml');
  rmSync(join(remote.work, 'svc/base/sub.toml'), { recursive: true });
  remote.write('svc/base/big.toml', `# ${'x'.repeat(4096)}\n`);
  const big = remote.commit('a file over the limit');
  await git.fetch(src);
  await assert.rejects(git.snapshot(src, big), /svc\/base\/big\.toml: larger than 2048 bytes \(server\.max_body_bytes\)/);
});

test('snapshot: every stack file comes back byte for byte from one read (shared contents, UTF-8, empty, no final newline)', async () => {
  const remote = createRepo(join(work, 'remotes'), 'many');
  const git = gitCli(join(work, 'cache-m'));
  const src = source('many', remote.url);
  const expected = new Map<string, string>();
  for (let i = 0; i < 40; i++) expected.set(`stacks/s${i}.toml`, `[[services]]\nname = "s${i}"\ncommand = "run ${'é'.repeat(i)}"\n`);
  expected.set('stacks/same-a.toml', '# the same\n');
  expected.set('stacks/same-b.toml', '# the same\n');
  expected.set('stacks/empty.toml', '');
  expected.set('stacks/unterminated.yaml', 'services: []');
  for (const [path, text] of expected) remote.write(path, text);
  const commit = remote.commit('many stack files');
  await git.fetch(src);
  const files = await git.snapshot(src, commit);
  assert.deepEqual([...files.keys()].sort(), [...expected.keys()].sort());
  for (const [path, text] of expected) assert.equal(files.get(path), text, path);
});

test('a pinned commit stays in the cache after a force-push took it out of the branch and git collected its garbage', async () => {
  const remote = createRepo(join(work, 'remotes'), 'rewritten');
  remote.write('a.toml', '[[services]]\nname = "a"\ncommand = "run"\n');
  remote.commit('base');
  remote.write('a.toml', '[[services]]\nname = "a"\ncommand = "run v2"\n');
  const pinned = remote.commit('the release pinned in production');
  const cacheDir = join(work, 'cache-e');
  const git = gitCli(cacheDir);
  const src = source('rewritten', remote.url);
  await git.fetch(src);
  await git.keep(src, pinned);
  // History rewritten: the pinned commit is no longer on main.
  remote.git('reset', '--quiet', '--hard', 'HEAD~1');
  remote.write('a.toml', '[[services]]\nname = "a"\ncommand = "run v3"\n');
  remote.git('-c', 'commit.gpgsign=false', 'commit', '--quiet', '-am', 'rewritten');
  remote.git('push', '--quiet', '--force', 'origin', 'main');
  await git.fetch(src);
  const gc = (cache: string) => execFileSync('git', ['--git-dir', join(cacheDir, `${cache}.git`), 'gc', '--quiet', '--prune=now'], { stdio: 'ignore' });
  gc('rewritten');
  assert.equal(await git.resolve(src, pinned.slice(0, 12)), pinned, 'still there: refs/svc/pin holds it');
  assert.match((await git.snapshot(src, pinned)).get('a.toml') ?? '', /run v2/);
  // Unpinned, the commit is garbage like any other.
  await git.keep(src, null);
  gc('rewritten');
  await assert.rejects(git.resolve(src, pinned), /is not in git:rewritten/);
});

test('snapshot: stack files larger in all than the output limit of one git are read, each within its own limit', async () => {
  const remote = createRepo(join(work, 'remotes'), 'large-in-all');
  // As 65 files of 1 MiB (server.max_body_bytes) against the 64 MiB of one git's output, scaled down.
  const git = gitCli(join(work, 'cache-l'), { maxFileBytes: 2048, maxOutputBytes: 4096 });
  const src = source('large-in-all', remote.url);
  const expected = new Map<string, string>();
  for (let i = 0; i < 3; i++) expected.set(`stacks/big${i}.toml`, `# ${String(i).repeat(1990)}\n`);
  for (const [path, text] of expected) remote.write(path, text);
  const commit = remote.commit('three files of 2 KB');
  await git.fetch(src);
  const files = await git.snapshot(src, commit);
  for (const [path, text] of expected) assert.equal(files.get(path), text, path);
});
