import { basename } from 'node:path';
import { otaPaths } from './paths.js';
import type { OtaDesired, OtaEffect, StepOutcome } from './plan-types.js';
import { PermanentStepError, type OtaLimits, type OtaPorts } from './ports.js';
import type { OtaRecord } from './record.js';

export type StepEffect = Extract<OtaEffect, { kind: 'step' }>;

/** What one step needs; `streamed` is the digest computed while downloading (spares a re-read). */
export interface StepJob {
  id: string;
  effect: StepEffect;
  /** The record as persisted before the step (null for inspect). */
  record: OtaRecord | null;
  desired: OtaDesired;
  limits: OtaLimits;
  streamed: { target: string; digest: string } | null;
  signal: AbortSignal;
  /** How far a download has come (the controller publishes it, at most once a second). */
  onProgress?: (receivedBytes: number, totalBytes: number | null) => void;
}

/** The result of a step, plus the digest a download streamed. */
export type StepResult = { outcome: StepOutcome; streamed?: { target: string; digest: string } };

/**
 * Carries out one step through the ports. Each step can be taken again from its start after a
 * daemon restart (it checks what a previous attempt left before acting). Failures come back
 * as data: a step never throws.
 */
export async function runStep(ports: OtaPorts, job: StepJob): Promise<StepResult> {
  const target = job.record?.target ?? null;
  try {
    return await take(ports, job);
  } catch (err) {
    const swap = err instanceof SwapError ? { backupCommitted: err.backupCommitted } : {};
    const error = (err as Error).message;
    const permanent = err instanceof PermanentStepError;
    return { outcome: { ok: false, step: job.effect.step, target, error, permanent, aborted: job.signal.aborted, destination: job.desired.destination, ...swap } };
  }
}

class SwapError extends Error {
  constructor(
    message: string,
    readonly backupCommitted: boolean,
  ) {
    super(message);
  }
}

async function take(ports: OtaPorts, job: StepJob): Promise<StepResult> {
  const { fs } = ports;
  const { effect, desired, limits, signal } = job;
  const record = job.record!;
  const target = record?.target ?? '';
  const dest = record?.destination ?? desired.destination;
  const paths = otaPaths(dest, job.id);
  switch (effect.step) {
    case 'inspect':
      return { outcome: { ok: true, step: 'inspect', destination: desired.destination, digest: await fs.digest(desired.destination) } };
    case 'download': {
      const got = await ports.downloader.download({ url: desired.source, file: paths.download, timeoutMs: desired.downloadTimeoutMs, maxBytes: limits.maxDownloadBytes, signal, onProgress: job.onProgress });
      return { outcome: { ok: true, step: 'download', target, bytes: got.bytes }, streamed: { target, digest: got.digest } };
    }
    case 'verify':
      return { outcome: { ok: true, step: 'verify', target, digest: await verify(ports, job, paths) } };
    case 'extract': {
      const got = await ports.extractor.extract({ archive: paths.download, out: paths.staged, name: basename(dest), maxBytes: limits.maxExtractBytes, signal });
      await fs.remove(paths.download);
      return { outcome: { ok: true, step: 'extract', target, digest: got.digest, entry: got.entry } };
    }
    case 'backup': {
      await fs.remove(paths.backupNext);
      if (!(await fs.stat(dest))) return { outcome: { ok: true, step: 'backup', target, digest: null } };
      try {
        await fs.link(dest, paths.backupNext);
      } catch {
        // Hard links can be refused (fs.protected_hardlinks, some filesystems): copy instead.
        await fs.copy(dest, paths.backupNext);
      }
      return { outcome: { ok: true, step: 'backup', target, digest: await fs.digest(paths.backupNext) } };
    }
    case 'swap':
      await swap(ports, record, paths);
      return { outcome: { ok: true, step: 'swap', target } };
    case 'rollback':
      await rollback(ports, record, paths);
      return { outcome: { ok: true, step: 'rollback', target: record.target } };
    case 'signal':
      ports.signal(effect.pid, effect.signal);
      return { outcome: { ok: true, step: 'signal', target, pid: effect.pid } };
  }
}

/** The digest of the download; a matching plain binary moves to the staged name. */
async function verify(ports: OtaPorts, job: StepJob, paths: ReturnType<typeof otaPaths>): Promise<string> {
  const target = job.record!.target!;
  const streamed = job.streamed?.target === target ? job.streamed.digest : null;
  const digest = streamed !== null ? ((await ports.fs.stat(paths.download)) ? streamed : null) : await ports.fs.digest(paths.download);
  if (digest === null) {
    // Taken again after a restart that followed the rename below.
    if (!job.desired.extract && (await ports.fs.digest(paths.staged)) === target) return target;
    throw new Error(`the downloaded file ${paths.download} is missing`);
  }
  if (digest === target && !job.desired.extract) await ports.fs.rename(paths.download, paths.staged);
  return digest;
}

/** Commits the backup, then renames the staged payload over the destination (mode and owner kept). */
async function swap(ports: OtaPorts, record: OtaRecord, paths: ReturnType<typeof otaPaths>): Promise<void> {
  const { fs } = ports;
  const dest = record.destination;
  let committed = false;
  try {
    if (await fs.stat(paths.backupNext)) {
      await fs.rename(paths.backupNext, paths.backup);
      committed = true;
    }
    const staged = await fs.digest(paths.staged);
    if (staged === null) {
      if ((await fs.digest(dest)) === record.staged) return; // renamed before a restart
      throw new Error(`the staged file ${paths.staged} is missing`);
    }
    if (staged !== record.staged) throw new Error(`the staged file ${paths.staged} changed (SHA-256 ${staged}, expected ${record.staged})`);
    const meta = await fs.stat(dest);
    await fs.setMeta(paths.staged, meta ?? { mode: 0o755, uid: -1, gid: -1 });
    await fs.rename(paths.staged, dest);
  } catch (err) {
    // The backup may have been committed by an earlier attempt that a restart interrupted.
    const backupNow = committed || (record.backup_next !== null && (await fs.digest(paths.backup).catch(() => null)) === record.backup_next.digest);
    throw new SwapError((err as Error).message, backupNow);
  }
}

async function rollback(ports: OtaPorts, record: OtaRecord, paths: ReturnType<typeof otaPaths>): Promise<void> {
  const { fs } = ports;
  const expected = record.backup!.digest;
  const have = await fs.digest(paths.backup);
  if (have === null) {
    if ((await fs.digest(record.destination)) === expected) return; // restored before a restart
    throw new Error(`the backup ${paths.backup} is missing`);
  }
  if (have !== expected) throw new Error(`the backup ${paths.backup} changed (SHA-256 ${have}, expected ${expected})`);
  await fs.rename(paths.backup, record.destination);
}
