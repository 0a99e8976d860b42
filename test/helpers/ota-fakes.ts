import { createHash } from 'node:crypto';
import type { FakeClock } from '../../reconciler/fake-clock.js';
import { choosePayload, type ArchiveEntry } from '../../controllers/ota/payload.js';
import type { DownloadRequest, Downloader, ExtractRequest, Extractor, FileMeta, OtaFs } from '../../controllers/ota/ports.js';
import type { OtaView } from '../../state/ota.js';

export const sha = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

/** The OTA status of a program idle with `installed` in place, with `over` changed. */
export function idleOtaView(installed: string | null, over: Partial<OtaView> = {}): OtaView {
  return { phase: 'idle', installed, target: null, backup: null, attempts: 0, next_attempt_at: null, rejected: null, restart_pending: false, swapped_at: null, deadline: null, last: null, rollback_seq: 0, download: null, ...over };
}

interface Inode {
  data: Buffer;
  mode: number;
  uid: number;
  gid: number;
}

type Op = 'digest' | 'stat' | 'link' | 'copy' | 'rename' | 'setMeta' | 'remove';

/** A trap on one operation: fail it, or never finish it (a daemon killed at that instant). */
interface Trap {
  op: Op;
  /** Matches the first path argument by suffix. */
  path: string;
  action: { fail: string } | { hang: 'before' | 'after' };
  once: boolean;
}

const never = new Promise<never>(() => undefined);

/** An in-memory filesystem: files are inodes (a hard link shares one), renames replace atomically. */
export class FakeOtaFs implements OtaFs {
  readonly files = new Map<string, Inode>();
  readonly log: string[] = [];
  private traps: Trap[] = [];

  write(path: string, content: string | Buffer, meta: Partial<FileMeta> = {}): void {
    this.files.set(path, { data: Buffer.from(content), mode: meta.mode ?? 0o755, uid: meta.uid ?? 0, gid: meta.gid ?? 0 });
  }

  read(path: string): string | undefined {
    return this.files.get(path)?.data.toString();
  }

  meta(path: string): FileMeta | undefined {
    const n = this.files.get(path);
    return n ? { mode: n.mode, uid: n.uid, gid: n.gid } : undefined;
  }

  /** Paths of temporary OTA files left behind (dot files with `.svc-ota-`). */
  temps(): string[] {
    return [...this.files.keys()].filter((p) => p.includes('.svc-ota-'));
  }

  failOn(op: Op, path: string, message: string, once = true): void {
    this.traps.push({ op, path, action: { fail: message }, once });
  }

  hangOn(op: Op, path: string, when: 'before' | 'after'): void {
    this.traps.push({ op, path, action: { hang: when }, once: true });
  }

  private async run<T>(op: Op, path: string, body: () => T): Promise<T> {
    this.log.push(`${op} ${path}`);
    const trap = this.traps.find((t) => t.op === op && path.endsWith(t.path));
    if (trap?.once) this.traps = this.traps.filter((t) => t !== trap);
    if (trap && 'fail' in trap.action) throw Object.assign(new Error(trap.action.fail), { code: 'EFAKE' });
    if (trap && 'hang' in trap.action && trap.action.hang === 'before') return never;
    const result = body();
    if (trap) return never;
    return result;
  }

  digest(path: string): Promise<string | null> {
    return this.run('digest', path, () => {
      const n = this.files.get(path);
      return n ? sha(n.data) : null;
    });
  }

  stat(path: string): Promise<FileMeta | null> {
    return this.run('stat', path, () => this.meta(path) ?? null);
  }

  link(existing: string, path: string): Promise<void> {
    return this.run('link', existing, () => {
      const n = this.need(existing);
      if (this.files.has(path)) throw new Error(`EEXIST: ${path}`);
      this.files.set(path, n);
    });
  }

  copy(from: string, to: string): Promise<void> {
    return this.run('copy', from, () => {
      const n = this.need(from);
      this.files.set(to, { ...n, data: Buffer.from(n.data) });
    });
  }

  rename(from: string, to: string): Promise<void> {
    return this.run('rename', from, () => {
      const n = this.need(from);
      this.files.delete(from);
      this.files.set(to, n);
    });
  }

  setMeta(path: string, meta: FileMeta): Promise<void> {
    return this.run('setMeta', path, () => {
      const n = this.need(path);
      n.mode = meta.mode;
      if (meta.uid !== -1) n.uid = meta.uid;
      if (meta.gid !== -1) n.gid = meta.gid;
    });
  }

  remove(path: string): Promise<void> {
    return this.run('remove', path, () => {
      this.files.delete(path);
    });
  }

  private need(path: string): Inode {
    const n = this.files.get(path);
    if (!n) throw Object.assign(new Error(`ENOENT: no such file or directory '${path}'`), { code: 'ENOENT' });
    return n;
  }
}

/** What a fake URL serves: bytes, an error, or a transfer that never ends (until timeout or abort). */
export type Served = { body: string } | { error: string } | { stall: true; total?: number | null };

/** Downloads from a table of URLs into the fake filesystem; download_timeout runs on the fake clock. */
export class FakeDownloader implements Downloader {
  readonly served = new Map<string, Served>();
  readonly requests: DownloadRequest[] = [];

  constructor(
    private readonly fs: FakeOtaFs,
    private readonly clock: FakeClock,
  ) {}

  serve(url: string, served: Served): void {
    this.served.set(url, served);
  }

  /** Bytes a stalled transfer has "received": reported to the request's onProgress (`feed`). */
  feed(bytes: number): void {
    const req = this.requests.at(-1);
    const served = req ? this.served.get(req.url) : undefined;
    if (req && served && 'stall' in served) req.onProgress?.(bytes, served.total ?? null);
  }

  async download(req: DownloadRequest): Promise<{ digest: string; bytes: number }> {
    this.requests.push(req);
    const served = this.served.get(req.url) ?? { error: 'HTTP 404 Not Found' };
    if ('error' in served) throw new Error(served.error);
    if ('stall' in served) {
      return new Promise((_resolve, reject) => {
        const cancel = req.timeoutMs > 0 ? this.clock.setTimer(req.timeoutMs, () => reject(new Error(`download_timeout (${req.timeoutMs / 1000} s) exceeded`))) : () => undefined;
        req.signal.addEventListener('abort', () => (cancel(), reject(new Error('cancelled'))));
      });
    }
    if (served.body.length > req.maxBytes) throw new Error(`larger than ota.max_download_bytes (${req.maxBytes})`);
    this.fs.write(req.file, served.body, { mode: 0o600, uid: 1000, gid: 1000 });
    return { digest: sha(served.body), bytes: served.body.length };
  }
}

/** A fake archive: JSON of its entries, each with its content; the real payload rule picks one. */
export function fakeArchive(entries: (Omit<ArchiveEntry, 'size'> & { content?: string })[]): string {
  return JSON.stringify(entries.map((e) => ({ ...e, size: e.content?.length ?? 0 })));
}

export class FakeExtractor implements Extractor {
  constructor(private readonly fs: FakeOtaFs) {}

  async extract(req: ExtractRequest): Promise<{ digest: string; entry: string; bytes: number }> {
    const text = this.fs.read(req.archive);
    if (text === undefined) throw new Error(`${req.archive} is missing`);
    const entries = JSON.parse(text) as (ArchiveEntry & { content?: string })[];
    const chosen = choosePayload(entries, req.name, req.maxBytes) as ArchiveEntry & { content?: string };
    const content = chosen.content ?? '';
    this.fs.write(req.out, content, { mode: 0o600, uid: 1000, gid: 1000 });
    return { digest: sha(content), entry: chosen.path, bytes: content.length };
  }
}
