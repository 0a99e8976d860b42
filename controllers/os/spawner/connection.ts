import type { Socket } from 'node:net';
import { constants } from 'node:os';
import { encodeFrame, FrameDecoder, Field, i32, MAX_FRAME, Msg, text, type FieldList, type Frame } from './protocol.js';

/** Frames held back at most before they are written (one writev each). */
const FLUSH_EVERY = 64;

const ERRNO_NAMES = new Map(Object.entries(constants.errno).map(([name, n]) => [n, name]));

/** An ERROR answer: the errno (and its name), the step that failed and the spawner's text. */
export class SpawnerRequestError extends Error {
  override name = 'SpawnerRequestError';
  constructor(
    readonly errno: number,
    readonly code: string,
    readonly stage: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A request larger than a frame may be (a spawn with megabytes of environment): refused before
 * anything is written, since the spawner would drop the connection, and with it every program's
 * exit status.
 */
export class FrameTooLargeError extends Error {
  override name = 'FrameTooLargeError';
  constructor(readonly bytes: number) {
    super(`a request of ${bytes} bytes is larger than a frame to svc-spawner may be (${MAX_FRAME})`);
  }
}

export function errorOf(f: Frame): SpawnerRequestError {
  const errno = i32(f, Field.ERRNO);
  return new SpawnerRequestError(errno, ERRNO_NAMES.get(errno) ?? `errno ${errno}`, i32(f, Field.STAGE), text(f, Field.MESSAGE));
}

export interface ConnectionEvents {
  /** LIVE and EXIT frames (and other unsolicited ones), in arrival order. */
  frame(f: Frame): void;
  /** An ERROR answer to a fire-and-forget request (seq 0). */
  error(err: SpawnerRequestError): void;
  /** The connection ended: by close(), or because the spawner went away. */
  closed(reason: string, byUs: boolean): void;
}

interface Pending {
  resolve: (f: Frame) => void;
  reject: (err: Error) => void;
}

/** One framed connection to the spawner: requests matched to answers by seq. */
export class SpawnerConnection {
  private readonly decoder = new FrameDecoder();
  private readonly pending = new Map<number, Pending>();
  private nextSeq = 1;
  private ended = false;
  /** Frames written since the socket was corked (0: not corked). */
  private corkedFrames = 0;
  private closing = false;

  constructor(
    private readonly socket: Socket,
    private readonly events: ConnectionEvents,
  ) {
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('error', (err) => this.end(`spawner connection: ${err.message}`));
    socket.on('close', () => this.end('the spawner closed the connection'));
  }

  get open(): boolean {
    return !this.ended;
  }

  /** Resolves with the OK/SPAWNED answer; rejects with SpawnerRequestError on ERROR. */
  request(type: number, fields: FieldList): Promise<Frame> {
    if (this.ended) return Promise.reject(new Error('the spawner connection is closed'));
    const seq = this.nextSeq;
    const frame = encodeFrame(type, seq, fields);
    if (frame.length - 4 > MAX_FRAME) return Promise.reject(new FrameTooLargeError(frame.length - 4));
    this.nextSeq = this.nextSeq >= 0xffffffff ? 1 : this.nextSeq + 1;
    return new Promise<Frame>((resolve, reject) => {
      this.pending.set(seq, { resolve, reject });
      this.write(frame);
    });
  }

  /**
   * Frames written in one tick leave in one writev (a burst of 1,000 cron spawns: a few syscalls,
   * not 1,000), and at most FLUSH_EVERY at a time: a stop of 500 programs runs its reconciles in
   * one long run of microtasks, and the spawner starts killing while svcd is still on the rest.
   */
  private write(frame: Buffer): void {
    if (this.corkedFrames === 0) {
      this.socket.cork();
      process.nextTick(() => this.flush());
    }
    this.socket.write(frame);
    if (++this.corkedFrames >= FLUSH_EVERY) this.flush();
  }

  /** Sends what is corked; a tick scheduled for an earlier cork may find nothing (or flush early). */
  private flush(): void {
    if (this.corkedFrames === 0) return;
    this.corkedFrames = 0;
    this.socket.uncork();
  }

  /** Fire and forget (seq 0): only an error is answered, through events.error. */
  send(type: number, fields: FieldList): void {
    if (!this.ended) this.write(encodeFrame(type, 0, fields));
  }

  close(): void {
    this.closing = true;
    this.socket.end();
    this.end('closed by svcd');
  }

  private receive(chunk: Buffer): void {
    let frames: Frame[];
    try {
      frames = this.decoder.push(chunk);
    } catch (err) {
      this.socket.destroy();
      this.end(`spawner protocol error: ${(err as Error).message}`);
      return;
    }
    for (const f of frames) this.dispatch(f);
  }

  private dispatch(f: Frame): void {
    const answer = f.type === Msg.OK || f.type === Msg.SPAWNED || f.type === Msg.ERROR;
    if (!answer || f.seq === 0) {
      if (f.type === Msg.ERROR) this.events.error(errorOf(f));
      else this.events.frame(f);
      return;
    }
    const p = this.pending.get(f.seq);
    if (!p) return;
    this.pending.delete(f.seq);
    if (f.type === Msg.ERROR) p.reject(errorOf(f));
    else p.resolve(f);
  }

  private end(reason: string): void {
    if (this.ended) return;
    this.ended = true;
    const err = new Error(reason);
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
    this.events.closed(reason, this.closing);
  }
}
