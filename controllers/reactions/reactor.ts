import { settlesWithin, type Clock } from '../../reconciler/clock.js';
import { conflict, invalid, notFound } from '../../state/errors.js';
import { EVENT_TYPES, type EventRecord, type EventType } from '../../state/events/types.js';
import type { ReactionsPort, ReactionsStatus, ReactionView, TestEventInput } from '../../state/reactions-view.js';
import { decide, planReactions, type ReactionRunState } from './decide.js';
import { reactionLogFile, runReaction, type RunnerDeps } from './runner.js';
import { REACTION_EVENT_TYPES, type Reaction, type RunOutcome, type RunRecord, type SkipReason } from './types.js';

export interface ReactorDeps extends RunnerDeps {
  clock: Clock;
  /** The reactions file (for messages). */
  file: string;
  /** Skipped matches (debug) and runs that did not exit 0 (warn), for the daemon log. */
  log: { debug(msg: string, fields?: Record<string, unknown>): void; info(msg: string, fields?: Record<string, unknown>): void; warn(msg: string, fields?: Record<string, unknown>): void };
}

interface Counters {
  runs: Record<RunOutcome, number>;
  skipped: Record<SkipReason, number>;
  last: RunRecord | null;
}

const counters = (): Counters => ({ runs: { ok: 0, failed: 0, timeout: 0, spawn_failed: 0 }, skipped: { disabled: 0, cooldown: 0, concurrency: 0 }, last: null });

/**
 * Runs reactions for the events it is handed (subscribe `onEvent` to the event bus). `onEvent`
 * only decides (pure, decide.ts) and starts runs without awaiting them: the event bus, the
 * history writer and process control never wait for a script. Run state (in flight, last
 * start, counters) lives here, in memory, keyed by reaction name; it survives reloads.
 */
export class Reactor implements ReactionsPort {
  private reactions: Reaction[] = [];
  private loadedAt: number | null = null;
  private loadError: { at: number; errors: string[] } | null = null;
  private readonly states = new Map<string, ReactionRunState>();
  private readonly counts = new Map<string, Counters>();
  private readonly inFlight = new Set<Promise<RunRecord>>();
  private runIds = 0;
  private closed = false;
  /** Aborted when svcd stops and the runs in flight have had their time (close). */
  private readonly shutdown = new AbortController();
  watching = false;

  constructor(private readonly deps: ReactorDeps) {}

  /** A valid file was read: its reactions are in force from now on. */
  load(reactions: Reaction[]): void {
    this.reactions = reactions;
    this.loadedAt = this.deps.clock.now();
    this.loadError = null;
  }

  /** An edit failed validation: the last good set stays in force, the problems are shown. */
  fail(errors: string[]): void {
    this.loadError = { at: this.deps.clock.now(), errors };
  }

  onEvent = (record: EventRecord): void => {
    if (this.closed) return;
    for (const { reaction, decision } of planReactions(this.reactions, this.states, record, this.deps.clock.now())) {
      if (decision.run) {
        void this.start(reaction, record, false);
        continue;
      }
      this.countersOf(reaction.name).skipped[decision.reason]++;
      // Debug only: a crash loop of many programs would fill the log with skips (they are counted).
      if (decision.reason !== 'disabled') this.deps.log.debug(`reaction '${reaction.name}' skipped for ${record.event}: ${decision.msg}`, { event_id: record.id });
    }
  };

  async test(name: string, input: TestEventInput): Promise<RunRecord> {
    const reaction = this.reactions.find((r) => r.name === name);
    if (!reaction) throw notFound(`reaction '${name}' not found in ${this.deps.file}`);
    const record = this.syntheticEvent(reaction, input);
    const decision = decide(reaction, this.stateOf(name), this.deps.clock.now(), true);
    if (!decision.run) throw conflict(`reaction '${name}': ${decision.msg}`);
    return this.start(reaction, record, true);
  }

  status(): ReactionsStatus {
    return { file: this.deps.file, watching: this.watching, loaded_at: this.loadedAt, load_error: this.loadError, reactions: this.reactions.map((r) => this.view(r)) };
  }

  /**
   * Stops reacting; waits up to `boundMs` for runs in flight, then kills the process groups of
   * those still going: once svcd is gone nothing would enforce their timeout_secs.
   */
  async close(boundMs: number): Promise<void> {
    this.closed = true;
    if (await this.allEndWithin(boundMs)) return;
    const count = this.inFlight.size;
    this.shutdown.abort();
    // Killed, they end at once; a moment for their reaction_failed to be recorded.
    await this.allEndWithin(1000);
    this.deps.log.warn(`reaction runs still in flight ${boundMs / 1000} s after svcd began to stop were killed (their process groups got SIGKILL)`, { count });
  }

  private async allEndWithin(ms: number): Promise<boolean> {
    return this.inFlight.size === 0 || settlesWithin(this.deps.clock, ms, Promise.allSettled([...this.inFlight]));
  }

  /** Resolves once every run started so far has ended (tests, shutdown). */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  /** Names of the reactions in force and their log files (for log rotation). */
  logFiles(): string[] {
    return this.reactions.map((r) => reactionLogFile(this.deps.logDir, r.name));
  }

  private start(reaction: Reaction, record: EventRecord, test: boolean): Promise<RunRecord> {
    const state = this.stateOf(reaction.name);
    state.running++;
    state.lastStartAt = this.deps.clock.now();
    const counters = this.countersOf(reaction.name);
    const placeholder: RunRecord = { event_id: record.id, event: record.event, program_name: record.program_name, started_at: state.lastStartAt, finished_at: null, outcome: 'running', exit_code: null, signal: null, duration_secs: null, msg: 'running', test };
    counters.last = placeholder;
    const runId = ++this.runIds;
    // Declared first: the run removes itself from inFlight when it ends (always after an await).
    let run: Promise<RunRecord> | null = null;
    run = (async () => {
      // Started after the current emit has reached every subscriber: the history (and any later
      // subscriber) sees the triggering event before this run's reaction_started.
      await Promise.resolve();
      try {
        const result = await runReaction({ ...this.deps, shutdown: this.shutdown.signal }, reaction, record, test, runId);
        counters.runs[result.outcome as RunOutcome]++;
        if (counters.last === placeholder) counters.last = result;
        if (result.outcome !== 'ok') this.deps.log.warn(`reaction '${reaction.name}' ${result.msg}`, { event_id: record.id });
        return result;
      } finally {
        state.running--;
        if (run) this.inFlight.delete(run);
      }
    })();
    this.inFlight.add(run);
    return run;
  }

  private syntheticEvent(reaction: Reaction, input: TestEventInput): EventRecord {
    const configured = reaction.events.find((e): e is EventType => e !== '*');
    const event = input.event ?? configured ?? 'process_fatal';
    if (!(EVENT_TYPES as readonly string[]).includes(event) || REACTION_EVENT_TYPES.includes(event as EventType)) {
      throw invalid(`event: unknown or reaction event type '${event}'`);
    }
    const literal = reaction.programs?.find((p) => !/[*?[]/.test(p)) ?? null;
    const now = this.deps.clock.now();
    const fatal = event === 'process_fatal' || event === 'process_backoff';
    return {
      id: `test-${now}-${this.runIds + 1}`,
      ts: Math.floor(now / 1000),
      ts_ms: now,
      program_id: input.program_id ?? null,
      program_name: input.program_name ?? literal,
      event: event as EventType,
      exit_code: event === 'process_exit' || fatal ? 1 : null,
      signal: null,
      retry_count: fatal ? 3 : null,
      duration_secs: null,
      msg: `synthetic event for a test run of reaction '${reaction.name}'`,
    };
  }

  private view(r: Reaction): ReactionView {
    const c = this.countersOf(r.name);
    return {
      name: r.name,
      enabled: r.enabled,
      events: [...r.events],
      programs: r.programs ? [...r.programs] : null,
      command: [...r.command],
      shell: r.shell,
      cwd: r.cwd,
      timeout_secs: r.timeoutSecs,
      max_concurrent: r.maxConcurrent,
      cooldown_secs: r.cooldownSecs,
      env_names: Object.keys(r.env),
      log_file: reactionLogFile(this.deps.logDir, r.name),
      running: this.stateOf(r.name).running,
      runs: { ...c.runs },
      skipped: { ...c.skipped },
      last_run: c.last,
    };
  }

  private stateOf(name: string): ReactionRunState {
    let s = this.states.get(name);
    if (!s) this.states.set(name, (s = { running: 0, lastStartAt: null }));
    return s;
  }

  private countersOf(name: string): Counters {
    let c = this.counts.get(name);
    if (!c) this.counts.set(name, (c = counters()));
    return c;
  }

  /** Every reaction's counters, including reactions removed by a reload (for /metrics). */
  stats(): { name: string; running: number; runs: Record<RunOutcome, number>; skipped: Record<SkipReason, number> }[] {
    return [...this.counts].map(([name, c]) => ({ name, running: this.stateOf(name).running, runs: c.runs, skipped: c.skipped }));
  }

  /** Whether the last edit of the file failed to load. */
  loadFailed(): boolean {
    return this.loadError !== null;
  }
}
