import { conflict, invalid, notFound } from '../../state/errors.js';
import { StoreWriteError } from '../../state/level/store-errors.js';
import type { EventSink } from '../../state/events/types.js';
import type { ProgramRecord } from '../../state/program.js';
import type { ApplyRequest, ApplyResult } from '../apply.js';
import type { Timers } from '../directory.js';
import { nextPollMs, planSync, type SyncTrigger } from './plan-sync.js';
import type { GitPort } from './port.js';
import { loadRepoStack, preparseRepoStack } from './repo-stack.js';
import type { DocumentParser } from '../parse-worker/parser.js';
import { shownUrl, type GitSourceConfig } from './source-config.js';
import { commitInForce, parseGitRecord, type GitSourceRecord, type GitSourceStatus } from './status.js';

export interface GitSyncDeps {
  sources: GitSourceConfig[];
  git: GitPort;
  applier: { apply(req: ApplyRequest): Promise<ApplyResult> };
  clock: Timers;
  events: EventSink;
  log: { info(msg: string, fields?: Record<string, unknown>): void; warn(msg: string, fields?: Record<string, unknown>): void };
  /** Parses large stack files in a worker (stacks/parse-worker); without it they parse inline. */
  parser?: DocumentParser;
  /** Durable applied commit and pin per source (ControllerStatusStore under `gitops`). */
  records?: {
    load(parse: (value: unknown) => GitSourceRecord | null): Promise<{ loaded: number; rejected: string[] }>;
    get(name: string): GitSourceRecord | undefined;
    put(name: string, value: GitSourceRecord): Promise<void>;
  };
}

export interface SyncRequest {
  /** Pin the source to this commit (full or abbreviated id) until unpinned. */
  to?: string;
  unpin?: boolean;
}

interface Source {
  cfg: GitSourceConfig;
  status: GitSourceStatus;
  /** The commit refused last, not retried by the timer. */
  refused: string | null;
  queue: Promise<void>;
  cancelPoll: (() => void) | null;
}

/**
 * Git sources (docs/gitops.md): each is fetched into svcd's cache, and the commit in force is
 * loaded, validated as a whole and applied as stack source `git:<name>` with prune. A commit
 * that fails (fetch, signature, syntax, validation) changes nothing: the last good one keeps
 * running and the error is kept in the status and the event history. Syncs of one source never
 * overlap; the timer is re-armed after each.
 */
export class GitSync {
  private readonly sources = new Map<string, Source>();
  private closed = false;

  constructor(private readonly deps: GitSyncDeps) {
    for (const cfg of deps.sources) this.sources.set(cfg.name, { cfg, status: initialStatus(cfg), refused: null, queue: Promise.resolve(), cancelPoll: null });
  }

  /** Loads the durable records, then syncs every source once (the start sync) and arms the timers. */
  async start(): Promise<void> {
    const { records, log } = this.deps;
    if (records) {
      const { rejected } = await records.load(parseGitRecord);
      if (rejected.length > 0) log.warn('unreadable git source records ignored', { sources: rejected });
      for (const s of this.sources.values()) {
        const r = records.get(s.cfg.name);
        if (r) Object.assign(s.status, { applied: r.applied, pinned: r.pinned });
      }
    }
    for (const s of this.sources.values()) this.schedule(s, 'start');
  }

  /** Syncs one source (or all) now; `to` pins, `unpin` follows the ref again. Resolves with the statuses. */
  async sync(name: string | undefined, req: SyncRequest = {}): Promise<GitSourceStatus[]> {
    if ((req.to !== undefined || req.unpin) && name === undefined) throw invalid('source: name the source to pin or unpin (svc sync NAME --to COMMIT)');
    if (req.to !== undefined && req.unpin) throw invalid('to: give --to or --unpin, not both');
    const targets = name === undefined ? [...this.sources.values()] : [this.source(name)];
    await Promise.all(targets.map((s) => this.enqueue(s, 'manual', req)));
    return targets.map((s) => ({ ...s.status }));
  }

  status(): GitSourceStatus[] {
    return [...this.sources.values()].map((s) => ({ ...s.status, lines: [...s.status.lines] }));
  }

  config(name: string): GitSourceConfig {
    return this.source(name).cfg;
  }

  /** The stack of the commit in force (pinned, else the last fetched head), for `svc diff`. */
  async target(name: string): Promise<{ commit: string; request: ApplyRequest }> {
    const s = this.source(name);
    const commit = commitInForce(s.status);
    if (!commit) throw conflict(`git:${name}: nothing fetched yet (svc sync ${name})`);
    const files = await this.deps.git.snapshot(s.cfg, commit);
    try {
      return { commit, request: await this.request(s.cfg, files) };
    } catch (err) {
      throw invalid(`git:${name}: commit ${commit.slice(0, 12)} does not load (the applied commit keeps running): ${(err as Error).message}`);
    }
  }

  /**
   * Refuses an API/CLI configuration change of a program owned by a git source (drift), naming
   * the source and where to change it. Operations (start, stop, restart, signal) never come here.
   * `by`: the stack source making the change. Another git source never takes a program over,
   * whatever `allow_drift` says: two repositories would take it from each other at every commit.
   */
  refuseDrift(record: ProgramRecord, change: string, by?: string): void {
    const label = record.config.source;
    if (!label?.startsWith('git:')) return;
    const s = this.sources.get(label.slice('git:'.length));
    if (!s) return;
    if (by !== undefined && by.startsWith('git:') && by !== label) {
      throw conflict(
        `program '${record.config.name}' is owned by git source '${s.cfg.name}', and ${by} lists it too: a program belongs to one git source; ` +
          `remove it from one of the two repositories (allow_drift covers API and CLI changes, not another git source)`,
      );
    }
    if (s.cfg.allow_drift) return;
    const { cfg } = s;
    const where = `${shownUrl(cfg.url)} (${cfg.ref.kind} ${cfg.ref.name}${cfg.path ? `, folder ${cfg.path}` : ''})`;
    throw conflict(
      `program '${record.config.name}' is owned by git source '${cfg.name}': ${change} it in the repository ${where}, then push (or 'svc sync ${cfg.name}'); ` +
        `start, stop, restart and signal stay allowed. To allow changes here until the next commit, set allow_drift = true for that source`,
    );
  }

  /** Resolves when no sync is running (tests, shutdown). */
  async idle(): Promise<void> {
    await Promise.all([...this.sources.values()].map((s) => s.queue));
  }

  /** Stops the timers and ends the git commands under way: a remote that never answers does not hold up svcd's stop. */
  close(): void {
    this.closed = true;
    for (const s of this.sources.values()) s.cancelPoll?.();
    this.deps.git.close?.();
  }

  private source(name: string): Source {
    const s = this.sources.get(name);
    if (!s) throw notFound(`git source '${name}' not found (configured: ${[...this.sources.keys()].join(', ') || 'none'}; [[stacks.git]] in conf/svc.toml)`);
    return s;
  }

  private schedule(s: Source, trigger: SyncTrigger, delayMs = 0): void {
    s.cancelPoll?.();
    s.cancelPoll = this.deps.clock.setTimer(delayMs, () => {
      s.cancelPoll = null;
      void this.enqueue(s, trigger, {}).catch((err: unknown) => this.deps.log.warn('git sync failed', { source: s.cfg.name, error: String(err) }));
    });
  }

  private enqueue(s: Source, trigger: SyncTrigger, req: SyncRequest): Promise<void> {
    const run = s.queue.then(() => this.run(s, trigger, req));
    // The queue keeps going after a failure; the caller still sees it.
    s.queue = run.catch(() => undefined);
    return run;
  }

  private async run(s: Source, trigger: SyncTrigger, req: SyncRequest): Promise<void> {
    if (this.closed) return;
    const { git, clock } = this.deps;
    const { cfg, status } = s;
    let fetchFailed = false;
    try {
      // A pin made before svcd kept pins in the cache is kept from the start sync on (in the
      // source's queue: the other sources' start syncs do not wait for it).
      if (trigger === 'start' && status.pinned) await this.keepPin(s);
      let head: string | null;
      try {
        head = await git.fetch(cfg);
        status.head = head;
        status.last_fetch = { at: clock.now(), ok: true };
        // A fetch error is over once a fetch works; a refused commit stays reported until replaced.
        if (status.last_error && status.last_error.commit === null) status.last_error = null;
      } catch (err) {
        // Ended by close(): svcd is stopping, which is no failure of the source.
        if (this.closed) return;
        fetchFailed = true;
        status.last_fetch = { at: clock.now(), ok: false };
        // Reported in the status (and the answer of a manual sync), never thrown: other sources go on.
        this.failed(s, null, `fetch failed: ${(err as Error).message}`, 'stack_sync_failed');
        // Pinning needs no fetch: the commit is in the cache. An emergency rollback must work
        // while the remote is down; unpinning goes back to the head fetched last; and a pinned
        // source is still applied again at start (and when asked), as planSync says.
        if (req.to === undefined && !req.unpin && status.pinned === null) return;
        head = status.head;
      }
      if (req.unpin) await this.pin(s, null);
      if (req.to !== undefined) await this.pin(s, await git.resolve(cfg, req.to));
      const target = status.pinned ?? head;
      if (target === null) return;
      const decision = planSync({ applied: status.applied?.commit ?? null, refused: s.refused, allowDrift: cfg.allow_drift }, target, trigger);
      if (decision === 'apply') await this.apply(s, target);
    } finally {
      if (!this.closed) this.schedule(s, 'interval', nextPollMs(cfg.interval_secs, fetchFailed));
    }
  }

  private async apply(s: Source, commit: string): Promise<void> {
    const { git, applier, clock, events, log } = this.deps;
    const { cfg, status } = s;
    const short = commit.slice(0, 12);
    let result: ApplyResult;
    let info;
    try {
      if (cfg.allowed_signers !== '') {
        const why = await git.verify(cfg, commit);
        if (why !== null) throw new Error(`not signed by an allowed key (${cfg.allowed_signers}): ${why}`);
      }
      info = await git.info(cfg, commit);
      result = await applier.apply(await this.request(cfg, await git.snapshot(cfg, commit)));
    } catch (err) {
      if (this.closed) return;
      const kept = status.applied ? `${status.applied.commit.slice(0, 12)} keeps running` : 'nothing applied yet';
      // The state store refusing the write (a full disk) says nothing about the commit: it is
      // tried again at the next poll. Anything else is the commit's own fault, until a new one.
      const transient = err instanceof StoreWriteError;
      if (!transient) s.refused = commit;
      const verdict = transient ? `not applied (${kept}; tried again at the next poll)` : `refused (${kept})`;
      this.failed(s, commit, `commit ${short} ${verdict}: ${(err as Error).message}`, 'stack_apply_failed');
      return;
    }
    const changed = result.lines.filter((l) => !l.startsWith('unchanged '));
    const isNew = status.applied?.commit !== commit;
    status.applied = { commit, time: info.time, subject: info.subject, applied_at: clock.now() };
    status.lines = result.lines;
    status.last_error = null;
    s.refused = null;
    await this.remember(s);
    if (isNew || changed.length > 0) {
      const what = changed.length > 0 ? changed.join(', ') : 'no changes';
      events.emit({ event: 'stack_applied', msg: `git:${cfg.name}: applied ${short} "${info.subject}": ${what}` });
      log.info('git source applied', { source: cfg.name, commit, lines: changed });
    }
  }

  private async request(cfg: GitSourceConfig, files: Map<string, string>): Promise<ApplyRequest> {
    const source = `git:${cfg.name}`;
    const layout = { path: cfg.path, host: cfg.host, source };
    const preparsed = this.deps.parser ? await preparseRepoStack(files, layout, this.deps.parser) : undefined;
    return { stack: loadRepoStack(files, layout, preparsed), source, prune: true };
  }

  private failed(s: Source, commit: string | null, message: string, event: 'stack_apply_failed' | 'stack_sync_failed'): void {
    const { status } = s;
    const repeat = status.last_error?.message === message;
    status.last_error = { at: this.deps.clock.now(), commit, message };
    status.failures++;
    // A failure that repeats at every poll is recorded once, not once per interval.
    if (repeat) return;
    this.deps.events.emit({ event, msg: `git:${s.cfg.name}: ${message}` });
    this.deps.log.warn(event === 'stack_sync_failed' ? 'git source fetch failed' : 'git commit refused; the last good commit keeps running', { source: s.cfg.name, commit, error: message });
  }

  private async pin(s: Source, commit: string | null): Promise<void> {
    s.status.pinned = commit;
    if (commit !== null) s.refused = null;
    await this.remember(s);
    await this.keepPin(s);
  }

  /** The pinned commit stays in the cache however the branch moves (best effort: the pin holds without it until git's gc). */
  private async keepPin(s: Source): Promise<void> {
    try {
      await this.deps.git.keep?.(s.cfg, s.status.pinned);
    } catch (err) {
      this.deps.log.warn('could not keep the pinned commit in the git cache', { source: s.cfg.name, error: String(err) });
    }
  }

  private async remember(s: Source): Promise<void> {
    const { records, log } = this.deps;
    try {
      await records?.put(s.cfg.name, { url: s.cfg.url, applied: s.status.applied, pinned: s.status.pinned });
    } catch (err) {
      log.warn('git source record write failed', { source: s.cfg.name, error: String(err) });
    }
  }
}

function initialStatus(cfg: GitSourceConfig): GitSourceStatus {
  return {
    name: cfg.name,
    source: `git:${cfg.name}`,
    url: shownUrl(cfg.url),
    ref: `${cfg.ref.kind} ${cfg.ref.name}`,
    path: cfg.path,
    host: cfg.host,
    verify: cfg.allowed_signers !== '',
    allow_drift: cfg.allow_drift,
    interval_secs: cfg.interval_secs,
    pinned: null,
    applied: null,
    head: null,
    last_fetch: null,
    last_error: null,
    failures: 0,
    lines: [],
  };
}
