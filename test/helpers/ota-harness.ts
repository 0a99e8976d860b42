import { MemoryLevel } from 'memory-level';
import { watchForDependants, watchRestartRequests } from '../../bin/observed-links.js';
import { HealthController } from '../../controllers/health/controller.js';
import type { ProbeOutcome } from '../../controllers/health/probe-port.js';
import { FakeOs } from '../../controllers/os/fake.js';
import { OtaController } from '../../controllers/ota/controller.js';
import type { OtaLimits } from '../../controllers/ota/ports.js';
import type { OtaRecord } from '../../controllers/ota/record.js';
import { ProcessController } from '../../controllers/process/controller.js';
import { FakeClock } from '../../reconciler/fake-clock.js';
import { Reconciler } from '../../reconciler/reconciler.js';
import { ControllerStatusStore } from '../../state/controller-status.js';
import type { EventInput } from '../../state/events/types.js';
import { ObservedRegistry } from '../../state/observed.js';
import type { Artifact, ProgramConfig } from '../../state/program.js';
import { ProgramStore } from '../../state/store.js';
import { loopDriver } from './loop-driver.js';
import { FakeDownloader, FakeExtractor, FakeOtaFs, sha } from './ota-fakes.js';

export const DEST = '/opt/app/bin/app';
export const URL_V2 = 'https://example.test/app-v2';
export const V1 = 'binary v1';
export const V2 = 'binary v2';

/**
 * The process, health and OTA controllers on one fake clock, fake OS, fake filesystem, fake
 * downloader and an in-memory LevelDB. `restartDaemon()` builds new controllers over the same
 * store, filesystem and (still running) processes, as after `kill -9` of svcd: whatever the old
 * controllers had in flight never finishes.
 */
export async function otaHarness(limits: Partial<OtaLimits> = {}) {
  const clock = new FakeClock();
  const os = new FakeOs();
  const fs = new FakeOtaFs();
  const downloader = new FakeDownloader(fs, clock);
  const extractor = new FakeExtractor(fs);
  const store = await ProgramStore.fromDb(new MemoryLevel());
  const events: EventInput[] = [];
  const warnings: string[] = [];
  /** Health probe results by port (tcp checks); absent = passing. */
  const probes = new Map<number, ProbeOutcome>();
  const fakeProbes = {
    tcp: async (_host: string, port: number) => probes.get(port) ?? { ok: true, message: 'connected' },
    http: async () => ({ ok: true, message: 'HTTP 200' }),
    exec: async () => ({ ok: true, message: 'exit 0' }),
  };

  let life = boot();
  const unsubscribeStore = store.onChange((ids) => life.onStore(ids));

  function boot(adopt: Map<string, { pid: number; startedAt: number }> = new Map()) {
    const observed = new ObservedRegistry();
    const emit = { emit: (e: EventInput) => events.push(e) };
    const spawnContext = { root: '/srv', logDir: '/srv/logs', baseEnv: { PATH: '/usr/bin' } };
    const loops: { process?: Reconciler<string>; health?: Reconciler<string>; ota?: Reconciler<string> } = {};
    const processes = new ProcessController({ store, observed, events: emit, os, clock, runtime: null, spawnContext, enqueue: (id) => loops.process?.enqueue(id), random: () => 0.5 });
    const health = new HealthController({
      store,
      observed,
      events: emit,
      clock,
      probes: fakeProbes,
      os,
      spawnContext,
      enqueue: (id) => loops.health?.enqueue(id),
      verdictChanged: (id) => loops.process?.enqueue(id),
      restartForHealth: (id, pid) => processes.restartForHealth(id, pid),
    });
    const status = new ControllerStatusStore<OtaRecord>(store.meta, 'ota');
    const ota = new OtaController({
      store,
      observed,
      events: emit,
      clock,
      status,
      ports: { fs, downloader, extractor, signal: (pid, sig) => os.signal(pid, sig, true) },
      limits: { maxDownloadBytes: 1_000_000, maxExtractBytes: 1_000_000, maxAttempts: 3, ...limits },
      wake: (id) => loops.ota?.enqueue(id),
      warn: (msg) => warnings.push(msg),
    });
    loops.process = new Reconciler(clock, processes.reconcile);
    loops.health = new Reconciler(clock, health.reconcile);
    loops.ota = new Reconciler(clock, ota.reconcile);
    for (const [id, a] of adopt) processes.adopt(id, { pid: a.pid, startTime: a.pid * 10, startedAt: a.startedAt, stopsecs: 10 });
    watchForDependants(store, observed, { process: (id) => loops.process?.enqueue(id), health: (id) => loops.health?.enqueue(id) });
    watchRestartRequests(observed, (id) => loops.process?.enqueue(id));
    observed.subscribe((id, o) => {
      for (const key of ota.watches.observed({ id, next: o })) loops.ota?.enqueue(key);
    });
    const all = [loops.process, loops.health, loops.ota];
    return {
      observed,
      ota,
      status,
      all,
      onStore: (ids: string[]) => {
        for (const id of ids) {
          loops.process?.enqueue(id);
          loops.health?.enqueue(id);
        }
        for (const id of ota.watches.desired(ids)) loops.ota?.enqueue(id);
      },
      start: async () => {
        await ota.prepare();
        for (const r of store.list()) loops.process!.enqueue(r.id);
        for (const id of ota.initialKeys()) loops.ota!.enqueue(id);
        for (const loop of all) loop.start();
      },
    };
  }

  await life.start();
  let driver = loopDriver(clock, life.all);

  const h = {
    clock,
    os,
    fs,
    downloader,
    store,
    events,
    warnings,
    probes,
    get observed() {
      return life.observed;
    },
    settle: () => driver.settle(),
    advance: (ms: number) => driver.advance(ms),
    /** A program whose command is the destination; v1 installed unless `installed` is null. */
    async add(artifact: Partial<Artifact> = {}, extra: Partial<ProgramConfig> = {}, installed: string | null = V1) {
      if (installed !== null) fs.write(DEST, installed, { mode: 0o750, uid: 42, gid: 43 });
      const [record] = await store.create([
        { name: 'app', command: DEST, startsecs: 1, artifact: { source: URL_V2, checksum: installed === null ? sha(V2) : sha(installed), destination: DEST, verify_timeout: 30, ...artifact }, ...extra },
      ]);
      await driver.settle();
      return record.id;
    },
    /** Sets the desired checksum (like `svc update app --set artifact.checksum=...`). */
    async want(id: string, checksum: string, patch: Partial<Artifact> = {}) {
      await store.update(id, (c) => ({ ...c, artifact: { ...c.artifact!, checksum, ...patch } }));
      await driver.settle();
    },
    async requestRollback(id: string) {
      await store.setIntents([id], (i) => ({ ...i, ota_rollback_seq: (i.ota_rollback_seq ?? 0) + 1 }));
      await driver.settle();
    },
    ota: (id: string) => life.observed.get(id).ota,
    record: (id: string) => life.status.get(id),
    pid: (id: string) => life.observed.get(id).pid,
    status: (id: string) => life.observed.get(id).status,
    types: () => events.map((e) => e.event).filter((t) => t.startsWith('ota_')),
    msgs: (type: string) => events.filter((e) => e.event === type).map((e) => e.msg),
    /** kill -9 of svcd: new controllers over the same store, files and live processes. */
    async restartDaemon() {
      const adopt = new Map<string, { pid: number; startedAt: number }>();
      for (const r of store.list()) {
        const o = life.observed.get(r.id);
        if (o.pid !== null && o.started_at !== null && os.processes.get(o.pid)?.alive) adopt.set(r.id, { pid: o.pid, startedAt: o.started_at });
      }
      for (const loop of life.all) loop.queue.shutDown();
      life = boot(adopt);
      await life.start();
      driver = loopDriver(clock, life.all);
      await driver.settle();
    },
    async close() {
      unsubscribeStore();
      for (const loop of life.all) await loop.stop();
      await store.close();
    },
  };
  return h;
}
