import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Socket } from 'node:net';
import { pidAlive, eventually, removeRoot, tempRoot, TIME_SCALE } from './daemon.js';
import { sanitizerReports, spawnerBinary } from './spawner-binary.js';
import { connectSocket, startSpawner } from '../../controllers/os/spawner/launch.js';
import { encodeFrame, FrameDecoder, Field, Msg, WIRE_VERSION, type FieldList, type Frame } from '../../controllers/os/spawner/protocol.js';
import type { OsPort } from '../../controllers/os/port.js';

export { killSpawnerOf, sanitizerReports, spawnerBinary } from './spawner-binary.js';

export interface SpawnerPaths {
  root: string;
  socketPath: string;
  logFile: string;
}

export function spawnerPaths(root = tempRoot('svc-spawner-')): SpawnerPaths {
  return { root, socketPath: join(root, 'run', 'spawner.sock'), logFile: join(root, 'logs', 'spawner.log') };
}

export async function startRawSpawner(paths: SpawnerPaths, args: string[] = []): Promise<number> {
  return startSpawner({ binary: spawnerBinary(), socketPath: paths.socketPath, logFile: paths.logFile, args });
}

export function fdCount(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length;
}

export function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

export function killPid(pid: number, group = false): void {
  try {
    process.kill(group ? -pid : pid, 'SIGKILL');
  } catch {
    // gone
  }
}

export async function waitGone(pid: number, what = `pid ${pid} gone`): Promise<void> {
  await eventually(() => !pidAlive(pid), 10_000, what);
}

/** A bare protocol client: raw bytes out, every frame kept, answers matched by seq. */
export class RawClient {
  readonly frames: Frame[] = [];
  private readonly decoder = new FrameDecoder();
  private seq = 1;
  closed = false;

  private readonly waiting = new Set<() => void>();

  private constructor(readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.frames.push(...this.decoder.push(chunk));
      for (const wake of [...this.waiting]) wake();
    });
    socket.on('close', () => (this.closed = true));
    socket.on('error', () => undefined);
  }

  static async connect(socketPath: string): Promise<RawClient> {
    return new RawClient(await connectSocket(socketPath));
  }

  sendRaw(bytes: Buffer): void {
    this.socket.write(bytes);
  }

  send(type: number, fields: FieldList, seq = this.seq++): number {
    this.socket.write(encodeFrame(type, seq, fields));
    return seq;
  }

  /** The first frame that matches, waiting for it to arrive (10 s at most, times TIME_SCALE: it only bounds a failure). */
  waitFrame(match: (f: Frame) => boolean, what: string): Promise<Frame> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.frames.find(match);
        if (!found) return;
        this.waiting.delete(check);
        clearTimeout(timer);
        resolve(found);
      };
      const timer = setTimeout(() => {
        this.waiting.delete(check);
        reject(new Error(`timed out waiting for ${what}`));
      }, 10_000 * TIME_SCALE);
      this.waiting.add(check);
      check();
    });
  }

  /** The answer (OK, SPAWNED or ERROR) to a request with this seq. */
  answer(seq: number): Promise<Frame> {
    return this.waitFrame((f) => f.seq === seq && [Msg.OK, Msg.SPAWNED, Msg.ERROR].includes(f.type as 16), `answer to ${seq}`);
  }

  async request(type: number, fields: FieldList): Promise<Frame> {
    return this.answer(this.send(type, fields));
  }

  hello(): Promise<Frame> {
    return this.request(Msg.HELLO, [[Field.VERSION, { u32: WIRE_VERSION }]]);
  }

  of(type: number): Frame[] {
    return this.frames.filter((f) => f.type === type);
  }

  destroy(): void {
    this.socket.destroy();
  }
}

/**
 * A raw spawner started with `args` (e.g. `--method clone`) and a client that said HELLO, for
 * `fn`; afterwards the spawner is killed and waited for, its log must hold no sanitizer report,
 * and its folder is removed.
 */
export async function withRawSpawner(args: string[], fn: (s: { paths: SpawnerPaths; spawner: number; client: RawClient; hello: Frame }) => Promise<void>): Promise<void> {
  const paths = spawnerPaths();
  const spawner = await startRawSpawner(paths, args);
  const client = await RawClient.connect(paths.socketPath);
  let reports = '';
  try {
    await fn({ paths, spawner, client, hello: await client.hello() });
  } finally {
    client.destroy();
    killPid(spawner);
    await waitGone(spawner);
    reports = sanitizerReports(paths.logFile);
    removeRoot(paths.root);
  }
  if (reports !== '') throw new Error(`sanitizer reports in the spawner log:\n${reports}`);
}

/** [soft, hard] open-files limits of a process, as `ulimit` prints them (/proc/<pid>/limits). */
export function openFilesLimits(pid: number): [string, string] {
  const row = /^Max open files\s+(\S+)\s+(\S+)/m.exec(readFileSync(`/proc/${pid}/limits`, 'utf8'));
  if (!row) throw new Error(`no open-files row in /proc/${pid}/limits`);
  return [row[1] ?? '', row[2] ?? ''];
}

/**
 * A capture with an hour's timeout, aborted once its command and a background child it started
 * run: it must end at once with its whole process group (an exec probe whose program stopped).
 * Whatever is left is killed afterwards.
 */
export async function captureEndsAtAbort(os: Pick<OsPort, 'capture'>, dir: string): Promise<void> {
  const bgFile = join(dir, 'abort-bg.pid');
  const abort = new AbortController();
  let result: Awaited<ReturnType<OsPort['capture']>> | undefined;
  void os.capture({ file: 'sh', args: ['-c', `sleep 300 & echo $! > ${bgFile}; echo $$ >> ${bgFile}; exec sleep 301`], cwd: dir, env: { PATH: '/usr/bin:/bin' } }, 3_600_000, abort.signal).then((r) => (result = r));
  const [bg, leader] = await eventually(() => {
    const pids = existsSync(bgFile) ? readFileSync(bgFile, 'utf8').split('\n').filter(Boolean).map(Number) : [];
    return pids.length === 2 ? pids : null;
  }, 5000, 'the command and its background child run');
  try {
    abort.abort();
    const ended = await eventually(() => result, 10_000, 'the capture ended at the abort');
    assert.equal(ended.signal, 9);
    await eventually(() => !pidAlive(leader) && !pidAlive(bg), 5000, 'the command and its background child are gone');
  } finally {
    killPid(bg);
    killPid(leader);
  }
}