import { Worker } from 'node:worker_threads';
import { invalid, SvcError } from '../../state/errors.js';
import { parseDocumentText, type DocumentFormat, type ParsedDocument } from '../document.js';
import { pathKey, type ParseReply, type ParseRequest } from './protocol.js';

export interface ParserLimits {
  /** TOML and YAML texts shorter than this parse inline (a worker round trip costs more). JSON always does: JSON.parse is native and fast. */
  inlineBelow: number;
  /** Old-generation heap of the worker: a document that needs more is refused with 413. */
  heapMb: number;
  /** A parse that takes longer is stopped (the worker is killed) and refused with 413. */
  timeoutMs: number;
  /** Documents waiting behind the one being parsed; one more is refused with 503. */
  maxWaiting: number;
  /** The worker is stopped after this long without work, giving its memory back. */
  idleMs: number;
}

/**
 * The deadline is wall-clock time, so it must allow for a busy machine: an 800 KB YAML stack takes
 * about 1 s alone and over 30 s on two cores saturated many times over. It bounds a pathological
 * document, not a slow host; memory is bounded by the heap cap whatever the time.
 */
export const DEFAULT_PARSER_LIMITS: ParserLimits = { inlineBelow: 64 * 1024, heapMb: 256, timeoutMs: 120_000, maxWaiting: 4, idleMs: 10_000 };

/** Structurally reconciler/clock.ts's Clock.setTimer (stacks/ does not depend on the reconciler). */
interface Timers {
  setTimer(ms: number, fn: () => void): () => void;
}

const realTimers: Timers = {
  setTimer: (ms, fn) => {
    const t = setTimeout(fn, ms);
    t.unref(); // a parse deadline or an idle worker never keeps svcd alive
    return () => clearTimeout(t);
  },
};

/**
 * Parses stack documents off the event loop. A 1 MiB YAML document costs the `yaml` library a
 * second or more and over 100 MiB; here that happens in one worker thread, one document at a
 * time, under a heap cap and a deadline, so the API keeps answering and memory stays bounded
 * however many documents arrive at once (docs/api.md, "Limits").
 */
export class DocumentParser {
  private worker: Worker | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private waiting = 0;
  private nextId = 1;
  private cancelIdle: (() => void) | null = null;

  constructor(
    private readonly limits: ParserLimits = DEFAULT_PARSER_LIMITS,
    private readonly timers: Timers = realTimers,
  ) {}

  async parse(text: string, format: DocumentFormat, path?: string): Promise<ParsedDocument> {
    if (format === 'json' || text.length < this.limits.inlineBelow) return parseDocumentText(text, format, path);
    if (this.waiting > this.limits.maxWaiting) {
      throw new SvcError('SVC_UNAVAILABLE', `busy: ${this.waiting} large stack documents are being parsed; retry later`);
    }
    this.waiting++;
    const label = path ?? `stack.${format}`;
    const run = this.queue.then(() => this.runOne({ id: this.nextId++, text, format, path: label }));
    this.queue = run.catch(() => undefined);
    try {
      return await run;
    } finally {
      this.waiting--;
    }
  }

  /** Stops the worker (daemon shutdown); a later parse starts a new one. */
  close(): Promise<void> {
    this.cancelIdle?.();
    const worker = this.worker;
    this.worker = null;
    return worker ? worker.terminate().then(() => undefined) : Promise.resolve();
  }

  private runOne(req: ParseRequest): Promise<ParsedDocument> {
    this.cancelIdle?.();
    const worker = this.ensureWorker();
    worker.ref();
    return new Promise<ParsedDocument>((resolve, reject) => {
      const done = (fn: () => void) => {
        cancelTimeout();
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        worker.unref();
        this.scheduleIdle();
        fn();
      };
      const onMessage = (reply: ParseReply) => {
        if (reply.id !== req.id) return;
        done(() => (reply.ok ? resolve(documentFrom(reply, req)) : reject(reply.invalid ? invalid(reply.message) : new Error(reply.message))));
      };
      const onError = (err: Error & { code?: string }) => {
        this.forget(worker);
        const tooBig = err.code === 'ERR_WORKER_OUT_OF_MEMORY';
        done(() => reject(tooBig ? new SvcError('SVC_TOO_LARGE', `${req.path}: needs more than ${this.limits.heapMb} MiB to parse; split the stack`) : err));
      };
      const onExit = () => {
        this.forget(worker);
        done(() => reject(new Error('the stack parse worker stopped unexpectedly')));
      };
      const cancelTimeout = this.timers.setTimer(this.limits.timeoutMs, () => {
        this.forget(worker);
        void worker.terminate();
        done(() => reject(new SvcError('SVC_TOO_LARGE', `${req.path}: took longer than ${this.limits.timeoutMs / 1000} s to parse; split the stack`)));
      });
      worker.on('message', onMessage);
      worker.once('error', onError);
      worker.once('exit', onExit);
      worker.postMessage(req);
    });
  }

  private ensureWorker(): Worker {
    this.worker ??= new Worker(new URL('./worker.js', import.meta.url), {
      resourceLimits: { maxOldGenerationSizeMb: this.limits.heapMb, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
    });
    return this.worker;
  }

  private forget(worker: Worker): void {
    if (this.worker === worker) this.worker = null;
  }

  private scheduleIdle(): void {
    this.cancelIdle?.();
    this.cancelIdle = this.timers.setTimer(this.limits.idleMs, () => {
      this.cancelIdle = null;
      if (this.waiting === 0) void this.close();
    });
  }
}

function documentFrom(reply: Extract<ParseReply, { ok: true }>, req: ParseRequest): ParsedDocument {
  return {
    value: reply.value,
    format: req.format,
    locate: (path) => {
      const pos = reply.positions.get(pathKey(path));
      return pos ? { line: pos[0], column: pos[1] } : null;
    },
    formatPosition: (p) => `${req.path}:${p.line}:${p.column}`,
  };
}

let shared: DocumentParser | null = null;

/** The daemon's one parser (the HTTP route and the watched directory share its worker and queue). */
export function sharedDocumentParser(): DocumentParser {
  shared ??= new DocumentParser();
  return shared;
}
