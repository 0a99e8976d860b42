import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryLevel } from 'memory-level';
import { FakeClock } from '../../../../reconciler/fake-clock.js';
import { StackApplier } from '../../../../stacks/apply.js';
import type { GitPort } from '../../../../stacks/git/port.js';
import { shownUrl, withoutUserInfo, type GitSourceConfig } from '../../../../stacks/git/source-config.js';
import type { GitSourceRecord } from '../../../../stacks/git/status.js';
import { GitSync } from '../../../../stacks/git/sync.js';
import { ControllerStatusStore } from '../../../../state/controller-status.js';
import type { EventInput } from '../../../../state/events/types.js';
import { ProgramStore } from '../../../../state/store.js';
import { StoreWriteError } from '../../../../state/level/store-errors.js';
import { gitSourceConfig } from '../../../helpers/git-repo.js';
import { DEFAULT_PARSER_LIMITS, DocumentParser } from '../../../../stacks/parse-worker/parser.js';
import type { DocumentFormat } from '../../../../stacks/document.js';

/** A remote in memory: commits by id, the branch head, and whether fetching works. */
class FakeRemote implements GitPort {
  commits = new Map<string, { files: Record<string, string>; time: number; subject: string; signed: boolean }>();
  head = '';
  down = false;
  /** fetch() never answers until close(). */
  hang = false;
  fetches = 0;
  /** Resolves at the first fetch. */
  readonly fetched: Promise<void>;
  private firstFetch!: () => void;
  /** The commit keep() holds in the cache (the pin), as the real cache's refs/svc/pin. */
  kept: string | null = null;
  private closed: (() => void)[] = [];
  private n = 0;

  constructor() {
    this.fetched = new Promise((resolve) => (this.firstFetch = resolve));
  }

  push(files: Record<string, string>, subject: string, signed = true): string {
    const id = `${String(++this.n).padStart(2, '0')}${'c'.repeat(38)}`;
    this.commits.set(id, { files, time: 1_600_000_000_000 + this.n * 1000, subject, signed });
    this.head = id;
    return id;
  }
  async fetch() {
    this.fetches++;
    this.firstFetch();
    if (this.down) throw new Error('could not read from remote repository');
    if (this.hang) await new Promise<void>((_, reject) => this.closed.push(() => reject(new Error('svcd is stopping'))));
    return this.head;
  }
  close() {
    for (const end of this.closed.splice(0)) end();
  }
  async keep(_src: GitSourceConfig, commit: string | null) {
    this.kept = commit;
  }
  async resolve(_src: GitSourceConfig, rev: string) {
    const id = [...this.commits.keys()].find((c) => c.startsWith(rev));
    if (!id) throw new Error(`commit ${rev} not found`);
    return id;
  }
  async info(_src: GitSourceConfig, commit: string) {
    const c = this.commits.get(commit)!;
    return { id: commit, time: c.time, subject: c.subject };
  }
  async verify(_src: GitSourceConfig, commit: string) {
    return this.commits.get(commit)?.signed ? null : 'no signature found';
  }
  async snapshot(_src: GitSourceConfig, commit: string) {
    return new Map(Object.entries(this.commits.get(commit)!.files));
  }
}

const source = gitSourceConfig;

const svc = (name: string, extra = '') => `[[services]]\nname = "${name}"\ncommand = "run"\nautostart = false\n${extra}`;

async function setup(over: Partial<GitSourceConfig> = {}, shared?: { db: MemoryLevel<string, string>; remote: FakeRemote; clock: FakeClock }, parser?: DocumentParser) {
  const clock = shared?.clock ?? new FakeClock();
  const db = shared?.db ?? new MemoryLevel<string, string>();
  const remote = shared?.remote ?? new FakeRemote();
  const store = await ProgramStore.fromDb(db);
  const events: EventInput[] = [];
  const applier = new StackApplier(store, { logDir: '/logs', now: () => clock.now() });
  const sync = new GitSync({
    sources: [source(over)],
    git: remote,
    applier,
    clock,
    events: { emit: (e) => events.push(e) },
    log: { info: () => undefined, warn: () => undefined },
    records: new ControllerStatusStore<GitSourceRecord>(store.meta, 'gitops'),
    parser,
  });
  applier.ownerGuard = (r, change, by) => sync.refuseDrift(r, change, by);
  const settle = async (ms = 0) => {
    clock.advance(ms);
    await sync.idle();
  };
  const names = () => store.list().map((r) => `${r.config.name}<${r.config.source}>`).sort();
  const status = () => sync.status()[0];
  return { clock, db, remote, store, events, applier, sync, settle, names, status };
}

test('start sync applies the head; the next commit applies at the next poll, not before', async () => {
  const t = await setup();
  const c1 = t.remote.push({ 'a.toml': svc('a') + svc('b') }, 'first');
  await t.sync.start();
  await t.settle();
  assert.deepEqual(t.names(), ['a<git:fleet>', 'b<git:fleet>']);
  assert.equal(t.status().applied?.commit, c1);
  assert.equal(t.status().applied?.subject, 'first');
  assert.deepEqual(t.events.map((e) => e.event), ['stack_applied']);

  t.remote.push({ 'a.toml': svc('a') }, 'drop b');
  await t.settle(59_999);
  assert.equal(t.remote.fetches, 1);
  await t.settle(1);
  assert.equal(t.remote.fetches, 2);
  assert.deepEqual(t.names(), ['a<git:fleet>'], 'b is pruned: the source owns its programs');
  assert.match(t.events[1]?.msg ?? '', /^git:fleet: applied 02c+ "drop b": pruned b$/);
  // The same commit at the next poll: nothing written, nothing recorded.
  await t.settle(60_000);
  assert.equal(t.events.length, 2);
});

test('a bad commit changes nothing, is reported once with its commit and position, and the next good one applies', async () => {
  const t = await setup();
  const good = t.remote.push({ 'a.toml': svc('a') }, 'good');
  await t.sync.start();
  await t.settle();
  const bad = t.remote.push({ 'a.toml': svc('a') + svc('b') + '[[services]]\nname = 3\n' }, 'bad');
  await t.settle(60_000);
  assert.deepEqual(t.names(), ['a<git:fleet>']);
  const s = t.status();
  assert.equal(s.applied?.commit, good);
  assert.equal(s.last_error?.commit, bad);
  assert.match(s.last_error?.message ?? '', /^commit 02c{10} refused \(01c{10} keeps running\): a\.toml:\d+:\d+: /);
  assert.equal(s.failures, 1);
  await t.settle(60_000);
  assert.equal(t.status().failures, 1, 'the refused commit is not retried by the timer');
  assert.deepEqual(t.events.map((e) => e.event), ['stack_applied', 'stack_apply_failed']);
  // Asked explicitly: tried again (same error, not recorded twice).
  await t.sync.sync('fleet');
  assert.equal(t.status().failures, 2);
  assert.equal(t.events.length, 2);
  t.remote.push({ 'a.toml': svc('a') + svc('b') }, 'fixed');
  await t.settle(60_000);
  assert.equal(t.status().last_error, null);
  assert.deepEqual(t.names(), ['a<git:fleet>', 'b<git:fleet>']);
});

test('a commit the state store could not write (a full disk) is tried again at the next poll, not refused until the next commit', async () => {
  const t = await setup();
  const c1 = t.remote.push({ 'a.toml': svc('a') }, 'first');
  const apply = t.applier.apply.bind(t.applier);
  let full = true;
  t.applier.apply = async (req) => {
    if (full) throw new StoreWriteError('SVC_NO_SPACE', 'no space left on the data disk (/srv/data): the change was not recorded');
    return apply(req);
  };
  await t.sync.start();
  await t.settle();
  assert.deepEqual(t.names(), []);
  assert.match(t.status().last_error?.message ?? '', /^commit 01c+ not applied \(nothing applied yet; tried again at the next poll\): no space left/);
  full = false;
  await t.settle(60_000);
  assert.deepEqual(t.names(), ['a<git:fleet>'], 'the same commit, applied once the disk had room');
  assert.equal(t.status().applied?.commit, c1);
  assert.equal(t.status().last_error, null);
});

test('a failed fetch is retried sooner, recorded once, and keeps what runs', async () => {
  const t = await setup({ interval_secs: 300 });
  t.remote.push({ 'a.toml': svc('a') }, 'first');
  await t.sync.start();
  await t.settle();
  t.remote.down = true;
  await t.settle(300_000);
  assert.equal(t.status().last_fetch?.ok, false);
  assert.match(t.status().last_error?.message ?? '', /^fetch failed: could not read/);
  await t.settle(30_000);
  assert.equal(t.remote.fetches, 3, 'retried after 30 s');
  assert.deepEqual(t.events.map((e) => e.event), ['stack_applied', 'stack_sync_failed']);
  assert.deepEqual(t.names(), ['a<git:fleet>']);
  assert.match((await t.sync.sync('fleet'))[0]?.last_error?.message ?? '', /^fetch failed: could not read/);
  t.remote.down = false;
  await t.settle(30_000);
  assert.equal(t.status().last_error, null);
});

test('pin to an older commit until unpinned; the pin survives a restart', async () => {
  const t = await setup();
  const c1 = t.remote.push({ 'a.toml': svc('a') }, 'one');
  await t.sync.start();
  await t.settle();
  t.remote.push({ 'a.toml': svc('a') + svc('b') }, 'two');
  await t.settle(60_000);
  assert.deepEqual(t.names(), ['a<git:fleet>', 'b<git:fleet>']);
  await t.sync.sync('fleet', { to: c1.slice(0, 6) });
  assert.equal(t.status().pinned, c1);
  assert.equal(t.remote.kept, c1, 'the pinned commit is kept in the cache (a force-push and a gc cannot drop it)');
  assert.deepEqual(t.names(), ['a<git:fleet>']);
  t.remote.push({ 'a.toml': svc('a') + svc('c') }, 'three');
  await t.settle(60_000);
  assert.deepEqual(t.names(), ['a<git:fleet>'], 'pinned: new commits wait');
  t.sync.close();
  const again = await setup({}, { db: t.db, remote: t.remote, clock: t.clock });
  await again.sync.start();
  await again.settle();
  assert.equal(again.status().pinned, c1);
  assert.equal(again.status().applied?.commit, c1);
  await again.sync.sync('fleet', { unpin: true });
  assert.equal(t.remote.kept, null, 'unpinned: let go');
  assert.deepEqual(again.names(), ['a<git:fleet>', 'c<git:fleet>']);
  await assert.rejects(again.sync.sync(undefined, { to: c1 }), /name the source/);
  await assert.rejects(again.sync.sync('nope'), /git source 'nope' not found/);
});

test('pin and unpin work while the remote is down: the commits are in the cache', async () => {
  const t = await setup();
  const c1 = t.remote.push({ 'a.toml': svc('a') }, 'one');
  await t.sync.start();
  await t.settle();
  const c2 = t.remote.push({ 'a.toml': svc('a') + svc('b') }, 'two');
  await t.settle(60_000);
  assert.deepEqual(t.names(), ['a<git:fleet>', 'b<git:fleet>']);
  t.remote.down = true;
  const [pinned] = await t.sync.sync('fleet', { to: c1.slice(0, 6) });
  assert.equal(pinned?.pinned, c1);
  assert.equal(pinned?.applied?.commit, c1, 'the pinned commit is applied without a fetch');
  assert.equal(pinned?.last_error, null);
  assert.equal(pinned?.last_fetch?.ok, false, 'the failed fetch still shows');
  assert.deepEqual(t.names(), ['a<git:fleet>']);
  await assert.rejects(t.sync.sync('fleet', { to: 'abcdef' }), /not found/);
  const [unpinned] = await t.sync.sync('fleet', { unpin: true });
  assert.equal(unpinned?.pinned, null);
  assert.equal(unpinned?.applied?.commit, c2, 'back to the head fetched last');
  assert.deepEqual(t.names(), ['a<git:fleet>', 'b<git:fleet>']);
});

test('a pinned source is applied again at start while its remote is down: the pin is in the cache, so drift is undone', async () => {
  const t = await setup();
  const c1 = t.remote.push({ 'a.toml': svc('a') + svc('b') }, 'one');
  await t.sync.start();
  await t.settle();
  t.remote.push({ 'a.toml': svc('a') }, 'two');
  await t.settle(60_000);
  await t.sync.sync('fleet', { to: c1 });
  assert.deepEqual(t.names(), ['a<git:fleet>', 'b<git:fleet>']);
  t.sync.close();
  // While svcd is down, b is lost from the store (a restored backup, a repair), and the remote goes down.
  await t.store.remove([t.store.getByName('b')!.id]);
  t.remote.down = true;
  const again = await setup({}, { db: t.db, remote: t.remote, clock: t.clock });
  await again.sync.start();
  await again.settle();
  assert.deepEqual(again.names(), ['a<git:fleet>', 'b<git:fleet>'], 'the pinned commit converged the programs');
  assert.equal(again.status().last_fetch?.ok, false, 'the failed fetch still shows');
  assert.equal(again.status().applied?.commit, c1);
  assert.match(again.events.map((e) => `${e.event}: ${e.msg}`).join('\n'), /^stack_sync_failed: git:fleet: fetch failed: /m);
  // Unpinned, nothing fetched by this svcd yet: nothing to apply until a fetch works.
  await again.sync.sync('fleet', { unpin: true });
  assert.deepEqual(again.names(), ['a<git:fleet>', 'b<git:fleet>']);
});

test('close() ends a fetch that never answers: idle() resolves and nothing is reported as failed', { timeout: 10_000 }, async () => {
  const t = await setup();
  t.remote.push({ 'a.toml': svc('a') }, 'one');
  t.remote.hang = true;
  await t.sync.start();
  t.clock.advance(0);
  await t.remote.fetched;
  t.sync.close();
  await t.sync.idle();
  assert.deepEqual(t.events, []);
  assert.equal(t.status().last_error, null);
});

test('signed-only: an unsigned commit is refused', async () => {
  const t = await setup({ allowed_signers: '/keys/allowed' });
  t.remote.push({ 'a.toml': svc('a') }, 'signed');
  await t.sync.start();
  await t.settle();
  const unsigned = t.remote.push({ 'a.toml': svc('a') + svc('evil') }, 'unsigned', false);
  await t.settle(60_000);
  assert.deepEqual(t.names(), ['a<git:fleet>']);
  assert.equal(t.status().last_error?.commit, unsigned);
  assert.match(t.status().last_error?.message ?? '', /not signed by an allowed key \(\/keys\/allowed\): no signature found/);
});

test('drift: other stacks and API changes to owned programs are refused unless allow_drift', async () => {
  const t = await setup();
  t.remote.push({ 'a.toml': svc('a') }, 'one');
  await t.sync.start();
  await t.settle();
  const a = t.store.list()[0];
  assert.throws(() => t.sync.refuseDrift(a, 'change'), /program 'a' is owned by git source 'fleet': change it in the repository file:\/\/\/repo\.git \(branch main\)/);
  const other = { prune: false, services: [{ body: { name: 'a', command: 'other' }, index: 0, doc: { locate: () => undefined, formatPosition: () => '' } as never, file: null, includedFrom: null, where: null }], includes: [] };
  await assert.rejects(t.applier.apply({ stack: other, source: 'stack:api' }), /owned by git source 'fleet'/);
  const free = await setup({ allow_drift: true });
  free.remote.push({ 'a.toml': svc('a') }, 'one');
  await free.sync.start();
  await free.settle();
  assert.doesNotThrow(() => free.sync.refuseDrift(free.store.list()[0], 'change'));
  // allow_drift: a start or a poll of the same commit does not undo the change.
  await free.applier.apply({ stack: other, source: 'stack:api' });
  await free.sync.sync('fleet');
  assert.equal(free.store.list()[0]?.config.command, 'other');
});

test('a program owned by one git source is not taken over by another, even with allow_drift: the second commit is refused, saying where', async () => {
  const clock = new FakeClock();
  const store = await ProgramStore.fromDb(new MemoryLevel<string, string>());
  const remotes: Record<string, FakeRemote> = { fleet: new FakeRemote(), team: new FakeRemote() };
  const of = (src: GitSourceConfig) => remotes[src.name];
  const git: GitPort = {
    fetch: (src) => of(src).fetch(),
    resolve: (src, rev) => of(src).resolve(src, rev),
    info: (src, c) => of(src).info(src, c),
    verify: (src, c) => of(src).verify(src, c),
    snapshot: (src, c) => of(src).snapshot(src, c),
  };
  const applier = new StackApplier(store, { logDir: '/logs', now: () => clock.now() });
  const sync = new GitSync({
    sources: [source({ allow_drift: true }), source({ name: 'team', url: 'file:///team.git', allow_drift: true })],
    git,
    applier,
    clock,
    events: { emit: () => undefined },
    log: { info: () => undefined, warn: () => undefined },
  });
  applier.ownerGuard = (r, change, by) => sync.refuseDrift(r, change, by);
  remotes.fleet.push({ 'a.toml': svc('hello') }, 'fleet runs hello');
  await sync.sync('fleet');
  remotes.team.push({ 'a.toml': svc('hello', 'priority = 9\n') }, 'team runs hello too');
  const [team] = await sync.sync('team');
  assert.match(team?.last_error?.message ?? '', /program 'hello' is owned by git source 'fleet', and git:team lists it too: a program belongs to one git source; remove it from one of the two repositories/);
  assert.equal(store.getByName('hello')?.config.source, 'git:fleet', 'fleet keeps it');
  assert.equal(store.getByName('hello')?.config.priority, undefined);
  // An API change is still allowed under allow_drift.
  assert.doesNotThrow(() => sync.refuseDrift(store.getByName('hello')!, 'change'));
  sync.close();
});

test('stack files of a commit are parsed through the parse worker (a large file does not block svcd), with the same positions in errors', async () => {
  const parser = new DocumentParser({ ...DEFAULT_PARSER_LIMITS, inlineBelow: 0 }); // every file through the worker
  const parsed: string[] = [];
  const spy = { parse: (text: string, format: DocumentFormat, path?: string) => (parsed.push(path ?? ''), parser.parse(text, format, path)) } as unknown as DocumentParser;
  const t = await setup({ path: 'svc' }, undefined, spy);
  try {
    t.remote.push({ 'svc/base/a.toml': svc('a'), 'svc/base/lib.yaml': 'services:\n  - name: b\n    command: run\n', 'svc/hosts/alpha/a.toml': svc('a', 'priority = 2\n') }, 'layered');
    await t.sync.start();
    await t.settle();
    assert.deepEqual(t.names(), ['a<git:fleet>', 'b<git:fleet>']);
    assert.equal(t.store.getByName('a')?.config.priority, 2, 'the overlay applies as when parsed inline');
    assert.deepEqual(parsed.sort(), ['svc/base/a.toml', 'svc/base/lib.yaml', 'svc/hosts/alpha/a.toml']);
    t.remote.push({ 'svc/base/a.toml': svc('a') + '[[services]]\nname = "c"\ncommand = 3\n' }, 'bad');
    await t.settle(60_000);
    assert.match(t.status().last_error?.message ?? '', /svc\/base\/a\.toml:\d+:\d+: services\[1\] \(name=c\): command: /);
  } finally {
    await parser.close();
  }
});

test('a token in an https URL’s user part (https://TOKEN@host/…, as forges take it) is never shown: status, drift refusals and git’s messages say ***', async () => {
  const t = await setup({ url: 'https://ghp_s3cret@git.example/ops/fleet.git' });
  t.remote.push({ 'a.toml': svc('a') }, 'one');
  await t.sync.start();
  await t.settle();
  assert.equal(t.status().url, 'https://***@git.example/ops/fleet.git');
  assert.throws(() => t.sync.refuseDrift(t.store.list()[0], 'change'), (err: Error) => err.message.includes('https://***@git.example/ops/fleet.git') && !err.message.includes('ghp_s3cret'));
  assert.equal(withoutUserInfo("fatal: repository 'https://ghp_s3cret@git.example/ops/fleet.git/' not found", 'https://ghp_s3cret@git.example/ops/fleet.git'), "fatal: repository 'https://***@git.example/ops/fleet.git/' not found");
  assert.equal(shownUrl('git@host:ops/fleet.git'), 'git@host:ops/fleet.git', 'an ssh user name is not a secret');
  assert.equal(shownUrl('ssh://git@host/ops/fleet.git'), 'ssh://git@host/ops/fleet.git');
});
