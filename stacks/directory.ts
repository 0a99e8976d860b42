import { join } from 'node:path';
import type { EventSink } from '../state/events/types.js';
import type { ApplyResult } from './apply.js';
import type { LoadedStack, ReadText } from './load.js';
import { loadStackFile } from './load.js';
import type { DocumentParser } from './parse-worker/parser.js';
import { preparseStackFile } from './preparse.js';
import { isStackFileName } from './file-names.js';
import type { StackDirStatus, StackFileStatus } from './status.js';

/** Time as a parameter (structurally the reconciler's Clock), so tests can use a fake clock. */
export interface Timers {
  now(): number;
  setTimer(ms: number, fn: () => void): () => void;
}

export interface StackDirectoryDeps {
  /** Absolute path of the watched directory (`[stacks] dir`). */
  dir: string;
  clock: Timers;
  applier: {
    apply(req: { stack: LoadedStack; source: string; prune?: boolean; alsoOwned?: string[]; keep?: Iterable<string> }): Promise<ApplyResult>;
    pruneOwned(source: string, includes: string[], keep?: Iterable<string>): Promise<ApplyResult>;
  };
  read: ReadText;
  log: { info(msg: string, fields?: Record<string, unknown>): void; warn(msg: string, fields?: Record<string, unknown>): void };
  /** Quiet period after the last event of a file before it is read (default 300 ms). */
  debounceMs?: number;
  /**
   * The processes that still have a file open for writing (stacks/open-writers.ts): a file whose
   * writer only paused is read once it is closed, at most `maxWriteWaitMs` (default 30 s) later.
   */
  writers?: (path: string) => number[];
  maxWriteWaitMs?: number;
  /** Parses large files off the event loop (stacks/parse-worker); without it files parse inline. */
  parser?: DocumentParser;
  /**
   * Durable records of the files this directory applied (state/controller-status.ts under
   * `stacks`), so that a file deleted while svcd was down is pruned at its next start. Without
   * it, only deletions seen while running are.
   */
  records?: FileRecords;
  /** The event history: stack_applied / stack_apply_failed per file (docs/events.md). */
  events?: EventSink;
  /**
   * Called with every file the stack files read besides themselves (their includes, found or
   * not, as absolute paths) whenever that set changes: the watch follows them and reports their
   * changes with `notifyPath`.
   */
  follow?: (paths: ReadonlySet<string>) => void;
}

/** What the directory remembers of a file it applied: where, and the includes of its last good apply. */
export interface FileRecord {
  dir: string;
  includes: string[];
}

/** The durable store of FileRecords by file name (structurally ControllerStatusStore<FileRecord>). */
export interface FileRecords {
  load(parse: (value: unknown) => FileRecord | null): Promise<{ loaded: number; rejected: string[] }>;
  ids(): string[];
  get(file: string): FileRecord | undefined;
  put(file: string, value: FileRecord): Promise<void>;
  delete(file: string): Promise<void>;
}

/**
 * The watched stacks directory, level-triggered: an event only schedules the file; after the
 * debounce the file is read as it is *now*. Present: applied with source `stack:<file>`.
 * Missing: what it owned (`stack:<file>` and its includes) is pruned. Broken: the error is
 * recorded and logged, and the last good state keeps running. Files are handled one at a time.
 */
export class StackDirectory {
  private readonly timers = new Map<string, () => void>();
  /** When each file was first found still open for writing after its quiet period. */
  private readonly writeWaits = new Map<string, number>();
  private readonly results = new Map<string, StackFileStatus>();
  private readonly includes = new Map<string, string[]>();
  /**
   * The service names of each file's last good apply. A name that two files list belongs to the
   * one applied last; when it leaves that file (edited out, file deleted) it is handed to the
   * other file instead of being pruned, so the programs always match what the directory lists.
   */
  private readonly listed = new Map<string, ReadonlySet<string>>();
  /** The other files (absolute paths, includes found or not) each file's last handling read. */
  private readonly reads = new Map<string, ReadonlySet<string>>();
  private queue: Promise<void> = Promise.resolve();
  /** Handles queued or running. */
  private pending = 0;
  /**
   * Files refused while other files were still to be handled: not reported yet, because those
   * files may be what they lack (two files written together, one naming the other's program in
   * depends_on). Each is handled once more when nothing else is pending, and reported then.
   */
  private readonly heldBack = new Set<string>();
  /** Held-back files being handled for the last time: a refusal now is reported. */
  private readonly lastChance = new Set<string>();
  private watching = false;

  constructor(private readonly deps: StackDirectoryDeps) {}

  /**
   * The start-up pass: every file of `listing` (the directory now), then every file this
   * directory applied in an earlier run that is gone, pruned as the watch would have done. The
   * gone ones come after the present ones have applied, so that a service moved from a deleted
   * file into a present one is handed over, the same program, rather than pruned and created again.
   */
  async startUp(listing: string[]): Promise<void> {
    this.scan(listing, await this.loadRecords());
  }

  /**
   * Every file is to be looked at again (the directory is another one now: a symbolic link on its
   * path was swapped): the files of `listing`, then the ones handled before that it lacks.
   */
  rescan(listing: string[]): void {
    this.scan(listing, [...this.results.values()].filter((r) => r.state !== 'removed').map((r) => r.file));
  }

  private scan(listing: string[], known: string[]): void {
    const present = new Set(listing);
    for (const file of [...present].sort()) this.notify(file);
    for (const file of known.filter((f) => !present.has(f)).sort()) this.notify(file);
  }

  /**
   * Reads the durable file records once, before the first `notify`. Returns the files that this
   * directory applied in an earlier run.
   */
  private async loadRecords(): Promise<string[]> {
    const { records, dir, log } = this.deps;
    if (!records) return [];
    const { rejected } = await records.load(parseFileRecord);
    if (rejected.length > 0) log.warn('unreadable stack file records ignored', { files: rejected });
    const known: string[] = [];
    for (const file of records.ids()) {
      const record = records.get(file);
      // A record of another directory ([stacks] dir changed) is not this listing's to judge.
      if (record?.dir !== dir) continue;
      this.includes.set(file, record.includes);
      known.push(file);
    }
    return known;
  }

  /** Something happened to `file` (a name inside the directory); handle it after the quiet period. */
  notify(file: string): void {
    if (!isStackFileName(file)) return;
    this.timers.get(file)?.();
    const cancel = this.deps.clock.setTimer(this.deps.debounceMs ?? 300, () => {
      this.timers.delete(file);
      if (this.stillBeingWritten(file)) return this.notify(file);
      this.enqueue(file);
    });
    this.timers.set(file, cancel);
  }

  private enqueue(file: string): void {
    this.pending++;
    this.queue = this.queue.then(async () => {
      this.heldBack.delete(file); // decided again now
      await this.handle(file); // never throws: a failure is recorded as the file's result
      this.lastChance.delete(file);
      this.pending--;
      this.releaseHeldBack();
    });
  }

  /** Once nothing else is pending, the held-back files are handled once more, for the last time. */
  private releaseHeldBack(): void {
    if (this.pending > 0 || this.timers.size > 0 || this.heldBack.size === 0) return;
    for (const file of this.heldBack) {
      this.lastChance.add(file);
      this.enqueue(file);
    }
    this.heldBack.clear();
  }

  /**
   * Something happened to the file at `path` (absolute): every stack file whose last handling
   * read it (an include, or one it named that was missing) is handled again.
   */
  notifyPath(path: string): void {
    for (const [file, paths] of this.reads) if (paths.has(path)) this.notify(file);
  }

  /** Whether to wait another quiet period: a process has the file open for writing, for less than maxWriteWaitMs so far. */
  private stillBeingWritten(file: string): boolean {
    const { writers, clock, log } = this.deps;
    const busy = writers?.(join(this.deps.dir, file)) ?? [];
    const since = this.writeWaits.get(file) ?? clock.now();
    if (busy.length > 0 && clock.now() - since < (this.deps.maxWriteWaitMs ?? 30_000)) {
      this.writeWaits.set(file, since);
      return true;
    }
    this.writeWaits.delete(file);
    if (busy.length > 0) log.warn('stack file still open for writing; read as it is now', { file, pids: busy });
    return false;
  }

  /** Resolves when every handled file is done (tests; shutdown). */
  async idle(): Promise<void> {
    // A handle may queue more (held-back files once nothing else is pending): wait for those too.
    for (let queue = this.queue; ; queue = this.queue) {
      await queue;
      if (queue === this.queue) return;
    }
  }

  setWatching(watching: boolean): void {
    this.watching = watching;
  }

  status(): StackDirStatus {
    const files = [...this.results.values()].sort((a, b) => a.file.localeCompare(b.file)).map((f) => {
      const warning = this.listedTwice(f.file);
      return warning ? { ...f, warning } : f;
    });
    return { dir: this.deps.dir, watching: this.watching, files };
  }

  /**
   * The services `file` lists that other files list too, each with its owner: the file applied
   * last took it over (a service moved to another file and left in the first, usually).
   */
  private listedTwice(file: string): string | null {
    const mine = this.listed.get(file);
    if (!mine) return null;
    const parts: string[] = [];
    for (const name of mine) {
      const others = [...this.listed].filter(([other, names]) => other !== file && names.has(name)).map(([other]) => other);
      if (others.length === 0) continue;
      const owner = [file, ...others].reduce((a, b) => ((this.results.get(b)?.at ?? 0) > (this.results.get(a)?.at ?? 0) ? b : a));
      parts.push(`${name} (also in ${others.join(', ')}; ${owner === file ? 'this file owns it' : `${owner} owns it`}: the file applied last)`);
    }
    return parts.length > 0 ? `listed in another stack file too: ${parts.join(', ')}` : null;
  }

  close(): void {
    for (const cancel of this.timers.values()) cancel();
    this.timers.clear();
    this.writeWaits.clear();
    this.heldBack.clear();
  }

  private async handle(file: string): Promise<void> {
    const { read, applier, log, clock } = this.deps;
    const path = join(this.deps.dir, file);
    const source = `stack:${file}`;
    let text: string | null;
    try {
      text = read(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return this.failed(file, `${file}: cannot read: ${(err as Error).message}`);
      text = null;
    }
    try {
      if (text === null) {
        if (!this.results.has(file) && !this.includes.has(file)) return;
        const elsewhere = this.listedElsewhere(file);
        const result = await applier.pruneOwned(source, this.includes.get(file) ?? [], elsewhere.keys());
        this.includes.delete(file);
        this.setReads(file, new Set());
        this.handOver(file, new Set(), elsewhere);
        this.results.set(file, { file, state: 'removed', message: null, lines: result.lines, at: clock.now() });
        log.info('stack file removed: pruned what it owned', { file, lines: result.lines });
        this.deps.events?.emit({ event: 'stack_applied', msg: `stack:${file}: file removed: ${result.lines.join(', ') || 'nothing to prune'}` });
        await this.remember(file, null);
        // A file whose removal was refused because this file's programs needed its own (depends_on) may go now.
        this.retryFailed(file);
        return;
      }
      const body = text;
      // The files it includes are followed, so that an edit of one applies this file again.
      const included = new Set<string>();
      const readAll = (p: string) => {
        if (p === path) return body;
        included.add(p);
        return read(p);
      };
      let stack: LoadedStack;
      try {
        const preparsed = this.deps.parser ? await preparseStackFile(path, readAll, this.deps.parser, file) : undefined;
        stack = ownedByFile(loadStackFile(path, readAll, file, preparsed), source);
      } finally {
        this.setReads(file, included);
      }
      // The file owns its programs: a service removed from it is pruned, as when the file is deleted.
      // An include dropped since the last good apply: its programs are the file's own too.
      const alsoOwned = (this.includes.get(file) ?? []).map((f) => `include:${f}`);
      const elsewhere = this.listedElsewhere(file);
      const result = await applier.apply({ stack, source, prune: true, alsoOwned, keep: elsewhere.keys() });
      const names = new Set(result.entries.filter((e) => e.action !== 'pruned').map((e) => e.name));
      const shared = [...names].filter((n) => elsewhere.has(n));
      if (shared.length > 0) log.warn('services listed in more than one stack file: the file applied last owns them', { file, services: shared, also_in: [...new Set(shared.map((n) => elsewhere.get(n)))] });
      this.handOver(file, names, elsewhere);
      const wasError = this.results.get(file)?.state === 'error';
      this.includes.set(file, stack.includes);
      await this.remember(file, stack.includes);
      this.results.set(file, { file, state: 'ok', message: null, lines: result.lines, at: clock.now() });
      const changed = result.lines.filter((l) => !l.startsWith('unchanged '));
      if (changed.length > 0) log.info('stack applied', { file, lines: changed });
      if (changed.length > 0 || wasError) this.deps.events?.emit({ event: 'stack_applied', msg: `stack:${file}: ${changed.join(', ') || 'no changes'}` });
      this.retryFailed(file);
    } catch (err) {
      this.failed(file, (err as Error).message);
    }
  }

  /** Records the files `file` read besides itself; tells `follow` when the set of all of them changes. */
  private setReads(file: string, paths: ReadonlySet<string>): void {
    const before = this.reads.get(file) ?? new Set<string>();
    if (before.size === paths.size && [...paths].every((p) => before.has(p))) return;
    if (paths.size > 0) this.reads.set(file, paths);
    else this.reads.delete(file);
    const all = new Set<string>();
    for (const set of this.reads.values()) for (const p of set) all.add(p);
    this.deps.follow?.(all);
  }

  /** The names other files (applied, not deleted) list, each with one of those files. */
  private listedElsewhere(file: string): Map<string, string> {
    const out = new Map<string, string>();
    for (const [other, names] of this.listed) if (other !== file) for (const name of names) out.set(name, other);
    return out;
  }

  /**
   * Records what `file` lists now; names it listed before and no longer does, which another file
   * lists, were kept by the prune: that file applies again and takes them over.
   */
  private handOver(file: string, names: ReadonlySet<string>, elsewhere: ReadonlyMap<string, string>): void {
    const before = this.listed.get(file) ?? new Set<string>();
    if (names.size > 0) this.listed.set(file, names);
    else this.listed.delete(file);
    const takers = new Set<string>();
    for (const name of before) if (!names.has(name) && elsewhere.has(name)) takers.add(elsewhere.get(name)!);
    for (const other of takers) this.notify(other);
  }

  /** Writes (or deletes) the durable record of a file; a failed write is logged, the apply stands. */
  private async remember(file: string, includes: string[] | null): Promise<void> {
    const { records, dir, log } = this.deps;
    if (!records) return;
    const current = records.get(file);
    try {
      if (includes === null) await records.delete(file);
      else if (current?.dir !== dir || current.includes.join('\n') !== includes.join('\n')) await records.put(file, { dir, includes });
    } catch (err) {
      log.warn('stack file record write failed; a deletion while svcd is down may go unnoticed', { file, error: String(err) });
    }
  }

  private failed(file: string, message: string): void {
    // Another file still to be handled (queued, or in its quiet period) may be what this one lacks.
    if (!this.lastChance.has(file) && (this.pending > 1 || this.timers.size > 0)) {
      this.heldBack.add(file);
      this.deps.log.info('stack file refused while other files are pending; tried again once they are handled', { file, error: message });
      return;
    }
    const last = this.results.get(file);
    // Recorded once per distinct error, not at every retry of the same refusal.
    if (last?.state !== 'error' || last.message !== message) this.deps.events?.emit({ event: 'stack_apply_failed', msg: `stack:${file}: refused, the last good state keeps running: ${message}` });
    this.results.set(file, { file, state: 'error', message, lines: last?.lines ?? [], at: this.deps.clock.now() });
    this.deps.log.warn('stack file refused; the last good state keeps running', { file, error: message });
  }

  /**
   * A file refused because of another file's programs may apply now: it needs programs that file
   * just created (depends_on), or its removal was refused while that file's programs needed its own.
   */
  private retryFailed(except: string): void {
    for (const s of this.results.values()) if (s.state === 'error' && s.file !== except) this.notify(s.file);
  }
}

/**
 * The file owns what it lists: each service gets the file's label (`stack:<file>`, or
 * `include:<file>` for one of an included file) whatever `source` it sets, as a git source's
 * services get `git:<name>`. A label of its own (the program's own source, which `svc export`
 * writes) left the program out of the file's prune: edited out of the file, or the file
 * deleted, it kept running.
 */
function ownedByFile(stack: LoadedStack, source: string): LoadedStack {
  const own = (s: LoadedStack['services'][number]) => (s.includedFrom ? `include:${s.includedFrom}` : source);
  const services = stack.services.map((s) => (typeof s.body === 'object' && s.body !== null && !Array.isArray(s.body) ? { ...s, body: { ...s.body, source: own(s) } } : s));
  return { ...stack, services };
}

function parseFileRecord(value: unknown): FileRecord | null {
  const v = value as Partial<FileRecord> | null;
  return typeof v?.dir === 'string' && Array.isArray(v.includes) && v.includes.every((i) => typeof i === 'string') ? { dir: v.dir, includes: v.includes } : null;
}
