import { MemoryLevel } from 'memory-level';
import { HealthController } from '../../controllers/health/controller.js';
import type { ExecProbeSpec, ProbeOutcome, ProbePort } from '../../controllers/health/probe-port.js';
import { FakeOs } from '../../controllers/os/fake.js';
import { ProcessController } from '../../controllers/process/controller.js';
import { signalOwner } from '../../controllers/program-controller.js';
import { ProgramActions } from '../../operations/actions.js';
import { FakeClock } from '../../reconciler/fake-clock.js';
import type { EventInput } from '../../state/events/types.js';
import { ObservedRegistry } from '../../state/observed.js';
import type { ProgramConfig } from '../../state/program.js';
import { HealthVerdicts } from '../../state/health-verdicts.js';
import { RuntimeStore } from '../../state/runtime-store.js';
import { ProgramStore } from '../../state/store.js';
import { managerHarness } from './manager-harness.js';

/**
 * The process and health controllers together on a fake OS, a fake clock and an in-memory
 * LevelDB, with exec probes answered per process: `healthy` holds the pids whose probe passes
 * (the probe sees the judged pid in SVC_PROBE_PID). Deterministic: no sockets, no sleeps.
 */
export async function reloadHarness(opts: { db?: MemoryLevel<string, string>; os?: FakeOs } = {}) {
  const os = opts.os ?? new FakeOs();
  const clock = new FakeClock();
  const db = opts.db ?? new MemoryLevel<string, string>();
  if (db.status === 'closed') await db.open();
  const store = await ProgramStore.fromDb(db, { clock });
  const observed = new ObservedRegistry();
  const events: EventInput[] = [];
  const healthy = new Set<number>();
  /** Pids whose probes never answer (a probe stuck past its timeout, as seen from the planner). */
  const hanging = new Set<number>();
  const probed: number[] = [];
  /** Every exec probe's spec, in the order they started. */
  const probeSpecs: ExecProbeSpec[] = [];
  /** The judged pids of hanging probes the controller abandoned (aborted), in that order. */
  const abandoned: number[] = [];
  const exec = async (spec: ExecProbeSpec, _timeoutMs: number, abort?: AbortSignal): Promise<ProbeOutcome> => {
    const pid = Number(spec.env.SVC_PROBE_PID);
    probed.push(pid);
    probeSpecs.push(spec);
    if (hanging.has(pid)) {
      return new Promise<ProbeOutcome>((resolve) =>
        abort?.addEventListener('abort', () => {
          abandoned.push(pid);
          resolve({ ok: false, message: `pid ${pid} probe abandoned` });
        }),
      );
    }
    return healthy.has(pid) ? { ok: true, message: `pid ${pid} ready` } : { ok: false, message: `pid ${pid} not ready` };
  };
  const probes: ProbePort = { tcp: async () => ({ ok: false, message: 'no tcp here' }), http: async () => ({ ok: false, message: 'no http here' }), exec };
  const emit = { emit: (e: EventInput) => events.push(e) };
  const spawnContext = { root: '/srv', logDir: '/srv/logs', baseEnv: { PATH: '/usr/bin' } };
  const m = managerHarness(clock, store, observed);
  const runtime = new RuntimeStore(store.meta);
  const processes = new ProcessController({ store, observed, events: emit, os, clock, runtime, spawnContext, boot: { epoch: store.epoch, adopted: new Set(), crashed: false }, wake: m.wake('process'), random: () => 0.5 });
  const verdicts = new HealthVerdicts(store.meta);
  const health = new HealthController({ store, observed, events: emit, clock, probes, os, spawnContext, wake: m.wake('health'), verdicts });
  await m.start(processes, health);
  const add = async (config: Partial<ProgramConfig> & { name: string }) => {
    const [record] = await store.create([{ command: 'app', ...config }]);
    await m.settle();
    return record.id;
  };
  /** Writes a reload request (as the API does) without waiting for its answer. */
  const requestReload = async (id: string) => {
    await store.setIntents([id], (i) => ({ ...i, run: 'running', reload_seq: (i.reload_seq ?? 0) + 1, force: false }));
    await m.settle();
  };
  const alivePids = () => [...os.processes.values()].filter((p) => p.alive).map((p) => p.pid);
  return {
    db,
    os,
    clock,
    store,
    observed,
    events,
    healthy,
    hanging,
    probed,
    probeSpecs,
    abandoned,
    runtime,
    actions: new ProgramActions(store, observed, signalOwner([processes])),
    settle: m.settle,
    advance: m.advance,
    add,
    requestReload,
    alivePids,
    pidOf: (id: string) => observed.get(id).pid!,
    types: () => events.map((e) => e.event),
    close: async () => {
      await m.stop();
      await store.close();
    },
    /** kill -9 of the daemon: the loops stop, the processes stay (the fake OS keeps them). */
    crash: async () => {
      m.crash();
      await runtime.flush();
      await verdicts.flush();
      await store.close();
    },
  };
}

/** An exec health check that probes every second and judges after one result. */
export const EXEC_CHECK = { type: 'exec', command: 'ready-check', interval_secs: 1, timeout_secs: 1, failure_threshold: 3, success_threshold: 1 } as const;
