import { MemoryLevel } from 'memory-level';
import { HealthController } from '../../controllers/health/controller.js';
import type { ProbeOutcome } from '../../controllers/health/probe-port.js';
import { FakeOs } from '../../controllers/os/fake.js';
import { OtaController } from '../../controllers/ota/controller.js';
import type { OtaLimits } from '../../controllers/ota/ports.js';
import type { OtaRecord } from '../../controllers/ota/record.js';
import { ProcessController } from '../../controllers/process/controller.js';
import { FakeClock } from '../../reconciler/fake-clock.js';
import { ControllerStatusStore } from '../../state/controller-status.js';
import type { EventInput } from '../../state/events/types.js';
import { ObservedRegistry } from '../../state/observed.js';
import type { Artifact, ProgramConfig } from '../../state/program.js';
import { ProgramStore } from '../../state/store.js';
import { RuntimeStore } from '../../state/runtime-store.js';
import { managerHarness } from './manager-harness.js';
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

  let life = await boot();

  async function boot() {
    const observed = new ObservedRegistry();
    const emit = { emit: (e: EventInput) => events.push(e) };
    const spawnContext = { root: '/srv', logDir: '/srv/logs', baseEnv: { PATH: '/usr/bin' } };
    const m = managerHarness(clock, store, observed);
    const processes = new ProcessController({ store, observed, events: emit, os, clock, runtime: new RuntimeStore(store.meta), spawnContext, boot: { epoch: store.epoch, adopted: new Set(), crashed: false }, wake: m.wake('process'), random: () => 0.5 });
    const health = new HealthController({ store, observed, events: emit, clock, probes: fakeProbes, os, spawnContext, wake: m.wake('health') });
    const status = new ControllerStatusStore<OtaRecord>(store.meta, 'ota');
    const ota = new OtaController({
      store,
      observed,
      events: emit,
      clock,
      status,
      ports: { fs, downloader, extractor, signal: (pid, sig) => os.signal(pid, sig, true) },
      limits: { maxDownloadBytes: 1_000_000, maxExtractBytes: 1_000_000, maxAttempts: 3, ...limits },
      wake: m.wake('ota'),
      warn: (msg) => warnings.push(msg),
    });
    await m.start(processes, health, ota);
    return { observed, ota, status, m };
  }

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
    /** Passes per controller so far (what woke whom). */
    passes: () => Object.fromEntries(life.m.manager.stats().map((s) => [s.controller, s.passes])),
    settle: () => life.m.settle(),
    advance: (ms: number) => life.m.advance(ms),
    /** A program whose command is the destination; v1 installed unless `installed` is null. */
    async add(artifact: Partial<Artifact> = {}, extra: Partial<ProgramConfig> = {}, installed: string | null = V1) {
      if (installed !== null) fs.write(DEST, installed, { mode: 0o750, uid: 42, gid: 43 });
      const [record] = await store.create([
        { name: 'app', command: DEST, startsecs: 1, artifact: { source: URL_V2, checksum: installed === null ? sha(V2) : sha(installed), destination: DEST, verify_timeout: 30, ...artifact }, ...extra },
      ]);
      await life.m.settle();
      return record.id;
    },
    /** Sets the desired checksum (like `svc update app --set artifact.checksum=...`). */
    async want(id: string, checksum: string, patch: Partial<Artifact> = {}) {
      await store.update(id, (c) => ({ ...c, artifact: { ...c.artifact!, checksum, ...patch } }));
      await life.m.settle();
    },
    async requestRollback(id: string) {
      await store.setIntents([id], (i) => ({ ...i, ota_rollback_seq: (i.ota_rollback_seq ?? 0) + 1 }));
      await life.m.settle();
    },
    ota: (id: string) => life.observed.get(id).ota,
    record: (id: string) => life.status.get(id),
    pid: (id: string) => life.observed.get(id).pid,
    status: (id: string) => life.observed.get(id).status,
    types: () => events.map((e) => e.event).filter((t) => t.startsWith('ota_')),
    msgs: (type: string) => events.filter((e) => e.event === type).map((e) => e.msg),
    /** kill -9 of svcd: new controllers over the same store, files and live processes. */
    async restartDaemon() {
      life.m.crash();
      life = await boot(); // the new process controller re-adopts the live processes it finds
      await life.m.settle();
    },
    async close() {
      await life.m.stop();
      await store.close();
    },
  };
  return h;
}
