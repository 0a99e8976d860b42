import { join } from 'node:path';
import type { Clock } from '../../reconciler/clock.js';
import type { Result } from '../../reconciler/reconciler.js';
import type { EventSink } from '../../state/events/types.js';
import type { IsolationView } from '../../state/isolation.js';
import type { ObservedChange, ObservedRegistry } from '../../state/observed.js';
import type { ProgramConfig } from '../../state/program.js';
import type { ProgramStore } from '../../state/store.js';
import type { CgroupFs } from '../../plugins/isolation/cgroup-fs.js';
import type { SpawnHooks } from '../os/decorated.js';
import type { ExitInfo, ProcessHandle, SpawnSpec, UsageSample } from '../os/port.js';
import { roleOf } from '../os/process-role.js';
import { featureKeys, type DesiredChange } from '../program-controller.js';
import { newGroup, type Group } from './group.js';
import { changedFiles, limitFiles, limitsOf, type Limits } from './limits.js';
import { diffMemoryEvents, oomMessage, parseMemoryEvents, pressureMessage, ZERO_COUNTERS, type MemoryCounters } from './memory-events.js';
import { cpuPercent, parseReading } from './usage.js';

/** Where limits can be enforced (`fs` and the `svc` parent cgroup), or why not. */
export type IsolationHost = { fs: CgroupFs; parent: string } | { reason: string };

export interface IsolationDeps {
  store: Pick<ProgramStore, 'get' | 'list'>;
  observed: ObservedRegistry;
  events: EventSink;
  clock: Clock;
  host: IsolationHost;
  /** $SVC_ROOT: whose processes a spawn spec is (roleOf). */
  root: string;
  wake: (id: string) => void;
  warn: (msg: string, fields?: Record<string, unknown>) => void;
  /** How often live cgroups are read (memory.events, usage); default 1000 ms. */
  pollMs?: number;
  /** The live processes of a program's session (leader first): moved when limits are added to a running program. */
  sessionOf?: (pid: number) => number[];
}

const REMOVE_RETRY_MS = 100;
const REMOVE_SLOW_RETRY_MS = 5000;
const PRESSURE_EVERY_MS = 60_000;

/** Whether a config asks for limits (set at all: limitsOf says which are enforceable). */
const hasLimits = (config: ProgramConfig): boolean => config.resource_limits !== undefined;

/**
 * resource_limits as cgroup v2 limits (docs/isolation.md). The spawn hooks create a program's
 * cgroup `<root>/svc/<id>` with its limits and hand its directory to the OS port, which starts
 * the process inside it. Reconcile (level-triggered, per program) writes changed limits live,
 * follows memory.events into memory_pressure and memory_oom_kill events, reads usage, and
 * removes the cgroup once its last process has left. Without an enforceable host it only
 * publishes why limits are not enforced.
 */
export class IsolationController {
  readonly name = 'isolation';
  private readonly groups = new Map<string, Group>();
  private readonly byDir = new Map<string, string>();

  constructor(private readonly deps: IsolationDeps) {}

  readonly watches = {
    // Limits come from the config; processes are followed through the observed state.
    desired: (change: DesiredChange): string[] => featureKeys(change, { store: this.deps.store, uses: hasLimits, known: (id) => this.groups.has(id), intents: false }),
    // Processes not started through the hooks (re-adopted, or running before limits were added):
    // their pid says whether they live, or that one now runs that can be moved into a cgroup.
    // Without a cgroup and without limits there is nothing to do (most programs).
    observed: ({ id, prev, next }: ObservedChange): string[] => {
      if (prev?.pid === next?.pid) return [];
      const group = this.groups.get(id);
      const config = this.deps.store.get(id)?.config;
      return (group ? group.adopted : config !== undefined && hasLimits(config)) ? [id] : [];
    },
  };

  initialKeys(): string[] {
    return this.deps.store.list().map((r) => r.id);
  }

  /** Takes over the cgroups of programs whose processes outlived the previous daemon. */
  async prepare(): Promise<void> {
    const host = this.deps.host;
    if ('reason' in host) return;
    for (const id of host.fs.children(host.parent)) {
      if (!this.deps.store.get(id)) continue; // not ours to touch (a quarantined or foreign program)
      this.track(id, newGroup(join(host.parent, id), this.readCounters(host.fs, join(host.parent, id)), true));
    }
  }

  /** At daemon shutdown: the cgroups whose processes have all gone are removed now, not at the next start. */
  async close(): Promise<void> {
    const host = this.deps.host;
    if ('reason' in host) return;
    for (const [id, group] of [...this.groups]) {
      if (this.alive(id, group)) continue;
      this.followMemoryEvents(id, host.fs, group, limitsOf(this.deps.store.get(id)?.config), this.deps.store.get(id)?.config.name ?? null);
      this.removeGroup(id, host.fs, group, undefined);
    }
  }

  /** The spawn decorator: programs and cron runs of programs with limits start inside their cgroup. */
  readonly hooks: SpawnHooks = {
    decorate: (spec) => this.decorate(spec),
    settled: (spec, handle) => this.settled(spec, handle),
    exited: (spec, handle, exit) => this.exited(spec, handle, exit),
  };

  /** Programs whose limits are enforced now (svc_cgroup_enforced_total). */
  enforcedCount(): number {
    return this.deps.store.list().filter((r) => this.deps.observed.get(r.id).isolation?.enforced === true).length;
  }

  /** Usage of the whole cgroup (every process in it) when enforced; null otherwise. */
  usage(id: string): UsageSample | null {
    return this.groups.get(id)?.usage ?? null;
  }

  reconcile = async (id: string): Promise<Result | void> => {
    const { host, store } = this.deps;
    const record = store.get(id);
    const limits = limitsOf(record?.config);
    if ('reason' in host) {
      if (record) this.publish(id, limits ? { enforced: false, reason: host.reason, cgroup: null, oom_kills: 0 } : undefined);
      return;
    }
    const group = this.groups.get(id) ?? (limits ? this.moveRunning(id, host.fs, limits) : undefined);
    if (!group) {
      if (record) this.publish(id, limits ? { enforced: false, reason: null, cgroup: null, oom_kills: this.observedOoms(id) } : undefined);
      return;
    }
    this.followMemoryEvents(id, host.fs, group, limits, record?.config.name ?? null);
    if (!this.alive(id, group)) return this.removeGroup(id, host.fs, group, limits);
    this.applyLive(id, host.fs, group, limits ?? {});
    this.readUsage(host.fs, group);
    if (record) this.publish(id, limits ? { enforced: true, reason: null, cgroup: group.dir, oom_kills: this.observedOoms(id) } : undefined);
    return { requeueAfterMs: this.deps.pollMs ?? 1000 };
  };

  private decorate(spec: SpawnSpec): SpawnSpec {
    const host = this.deps.host;
    const role = roleOf(spec.env, this.deps.root);
    if ('reason' in host || !role || (role.role !== 'program' && role.role !== 'cron')) return spec;
    const limits = limitsOf(this.deps.store.get(role.programId)?.config);
    if (!limits) return spec;
    const dir = join(host.parent, role.programId);
    let group = this.groups.get(role.programId);
    try {
      if (!group) {
        host.fs.mkdir(dir);
        group = newGroup(dir, this.readCounters(host.fs, dir), false);
        this.track(role.programId, group);
      }
      // Written before the process exists: it never runs without its limits.
      for (const [file, value] of group.applied ? changedFiles(group.applied, limits) : limitFiles(limits)) host.fs.write(join(dir, file), value);
      group.applied = limits;
    } catch (err) {
      throw new Error(`resource_limits: cannot prepare cgroup ${dir}: ${(err as Error).message}`);
    }
    group.spawning++;
    return { ...spec, cgroup: dir };
  }

  /**
   * Limits added to a program that runs without them: its cgroup is made with the limits and
   * every process of its session is moved in (children that left the session stay out). Its
   * end is then followed through the observed pid, like a re-adopted one.
   */
  private moveRunning(id: string, fs: CgroupFs, limits: Limits): Group | undefined {
    const pid = this.deps.observed.get(id).pid;
    if (pid === null || !this.deps.sessionOf) return undefined;
    const dir = join((this.deps.host as { parent: string }).parent, id);
    try {
      fs.mkdir(dir);
      const group = newGroup(dir, this.readCounters(fs, dir), true);
      for (const [file, value] of limitFiles(limits)) fs.write(join(dir, file), value);
      group.applied = limits;
      this.track(id, group);
      for (const member of this.deps.sessionOf(pid)) fs.write(join(dir, 'cgroup.procs'), String(member));
      return group;
    } catch (err) {
      this.deps.warn('resource_limits: a running program could not be moved into its cgroup; the limits apply from its next start', { program_id: id, error: (err as Error).message });
      return this.groups.get(id);
    }
  }

  private settled(spec: SpawnSpec, handle: ProcessHandle | null): void {
    const id = spec.cgroup ? this.byDir.get(spec.cgroup) : undefined;
    const group = id ? this.groups.get(id) : undefined;
    if (!id || !group) return;
    group.spawning = Math.max(0, group.spawning - 1);
    if (handle) group.members.add(handle.pid);
    this.deps.wake(id);
  }

  private exited(spec: SpawnSpec, handle: ProcessHandle, exit: ExitInfo): ExitInfo {
    const id = spec.cgroup ? this.byDir.get(spec.cgroup) : undefined;
    const group = id ? this.groups.get(id) : undefined;
    const host = this.deps.host;
    if (!id || !group || 'reason' in host) return exit;
    group.members.delete(handle.pid);
    const seen = exit.signal === 9 ? this.oomNote(id, host.fs, group, exit) : exit;
    this.deps.wake(id); // last: the pass it starts may remove the cgroup
    return seen;
  }

  /** Read before the cgroup goes: a SIGKILL with a new oom_kill count was the OOM killer. */
  private oomNote(id: string, fs: CgroupFs, group: Group, exit: ExitInfo): ExitInfo {
    const kills = this.readCounters(fs, group.dir).oom_kill;
    if (kills <= group.notedOomKills) return exit;
    group.notedOomKills = kills;
    const limit = limitsOf(this.deps.store.get(id)?.config)?.memory_limit;
    return { ...exit, note: `OOM-killed: the cgroup reached its memory_limit${limit !== undefined ? ` of ${limit} bytes` : ''}` };
  }

  private alive(id: string, group: Group): boolean {
    if (group.spawning > 0 || group.members.size > 0) return true;
    if (!group.adopted) return false;
    const o = this.deps.observed.get(id);
    return o.pid !== null || (o.cron?.running ?? 0) > 0;
  }

  private applyLive(id: string, fs: CgroupFs, group: Group, desired: Limits): void {
    const changes = group.applied ? changedFiles(group.applied, desired) : limitFiles(desired);
    try {
      for (const [file, value] of changes) fs.write(join(group.dir, file), value);
      group.applied = desired;
    } catch (err) {
      this.deps.warn('resource_limits: a live limit change could not be written', { program_id: id, error: (err as Error).message });
    }
  }

  private followMemoryEvents(id: string, fs: CgroupFs, group: Group, limits: Limits | undefined, name: string | null): void {
    const now = this.deps.clock.now();
    const counters = this.readCounters(fs, group.dir, group.counters);
    const diff = diffMemoryEvents(group.counters, counters);
    if (diff.oomKills > 0) group.oomRiseAt = now;
    else if (counters.oom_kill > group.notedOomKills && now - group.oomRiseAt >= (this.deps.pollMs ?? 1000) && this.alive(id, group)) {
      // Kills its processes outlived by a reading (an exit is seen within milliseconds): a child
      // died, not them. A later SIGKILL (a stop's) must not be taken for an OOM kill because of it.
      group.notedOomKills = counters.oom_kill;
    }
    group.counters = counters;
    const limit = limits?.memory_limit;
    group.pendingPressure = { high: group.pendingPressure.high + diff.pressure.high, max: group.pendingPressure.max + diff.pressure.max };
    const pending = group.pendingPressure.high + group.pendingPressure.max > 0;
    if (pending && now - group.lastPressureAt >= PRESSURE_EVERY_MS) {
      this.deps.events.emit({ event: 'memory_pressure', program_id: id, program_name: name, msg: pressureMessage(group.pendingPressure, limit) });
      group.pendingPressure = { high: 0, max: 0 };
      group.lastPressureAt = now;
    }
    if (diff.oomKills > 0) {
      this.deps.events.emit({ event: 'memory_oom_kill', program_id: id, program_name: name, signal: 9, msg: oomMessage(diff.oomKills, limit) });
      this.oomCounts.set(id, (this.oomCounts.get(id) ?? 0) + diff.oomKills);
    }
  }

  private readonly oomCounts = new Map<string, number>();

  private observedOoms(id: string): number {
    return this.oomCounts.get(id) ?? 0;
  }

  private readUsage(fs: CgroupFs, group: Group): void {
    const read = (file: string) => {
      try {
        return fs.read(join(group.dir, file));
      } catch {
        return null;
      }
    };
    const reading = parseReading(this.deps.clock.now(), read('cpu.stat'), read('memory.current'));
    if (!reading) return;
    group.usage = { cpu: cpuPercent(group.reading, reading), memory: reading.memory };
    group.reading = reading;
  }

  /** The last process has left: anything it left behind is killed (control-group mode), then rmdir. */
  private removeGroup(id: string, fs: CgroupFs, group: Group, limits: Limits | undefined): Result | void {
    try {
      fs.write(join(group.dir, 'cgroup.kill'), '1');
    } catch {
      // Kernels before 5.14 have no cgroup.kill; rmdir then waits for the remnants to leave.
    }
    try {
      fs.remove(group.dir);
    } catch (err) {
      group.removeTries++;
      if (group.removeTries === 50) this.deps.warn('resource_limits: a cgroup is still busy after its program stopped; retrying every 5 s', { program_id: id, cgroup: group.dir, error: (err as Error).message });
      return { requeueAfterMs: group.removeTries < 50 ? REMOVE_RETRY_MS : REMOVE_SLOW_RETRY_MS };
    }
    this.groups.delete(id);
    this.byDir.delete(group.dir);
    if (this.deps.store.get(id)) this.publish(id, limits ? { enforced: false, reason: null, cgroup: null, oom_kills: this.observedOoms(id) } : undefined);
  }

  private readCounters(fs: CgroupFs, dir: string, fallback: MemoryCounters = ZERO_COUNTERS): MemoryCounters {
    try {
      const text = fs.read(join(dir, 'memory.events'));
      return text === null ? fallback : parseMemoryEvents(text);
    } catch {
      return fallback;
    }
  }

  private track(id: string, group: Group): void {
    this.groups.set(id, group);
    this.byDir.set(group.dir, id);
  }

  private publish(id: string, view: IsolationView | undefined): void {
    const current = this.deps.observed.get(id).isolation;
    if (JSON.stringify(current) === JSON.stringify(view)) return;
    if (!this.deps.observed.has(id) && view === undefined) return;
    this.deps.observed.update(id, { isolation: view });
  }
}
