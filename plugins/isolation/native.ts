import { readdirSync } from 'node:fs';
import { constants } from 'node:os';
import type { NativeFunction, PluginLibrary } from '../host/open-library.js';
import { CgroupFsError, type CgroupFs, type FsKind } from './cgroup-fs.js';

const ERRNO_NAMES = new Map(Object.entries(constants.errno).map(([name, n]) => [n, name]));
const KINDS: Record<number, FsKind> = { 0: 'other', 1: 'cgroup2', 2: 'cgroup1', 3: 'tmpfs' };
/** cgroup interface files are small (memory.stat is the largest we read, ~1.5 KiB). */
const READ_CAP = 16 * 1024;

function errnoName(n: number): string {
  return ERRNO_NAMES.get(n) ?? `errno ${n}`;
}

/** CgroupFs over isolation.so (isolation.h documents each function). */
export class IsolationNative implements CgroupFs {
  private readonly fn: (symbol: string) => NativeFunction;
  private readonly buf = Buffer.alloc(READ_CAP);

  constructor(private readonly lib: PluginLibrary) {
    this.fn = (symbol) => {
      const f = lib.functions[symbol];
      if (!f) throw new TypeError(`isolation plugin: ${symbol} is not bound (plugins/host/catalog.ts)`);
      return f;
    };
  }

  get version(): string {
    return this.lib.version;
  }

  fsKind(path: string): FsKind | null {
    const kind = this.fn('svc_isolation_fs_kind')(path) as number;
    return kind < 0 ? null : (KINDS[kind] ?? 'other');
  }

  notWritable(path: string): string | null {
    const err = this.fn('svc_isolation_writable')(path) as number;
    return err === 0 ? null : errnoName(err);
  }

  mkdir(path: string): void {
    this.check(this.fn('svc_isolation_mkdir')(path) as number, 'mkdir', path);
  }

  write(path: string, text: string): void {
    this.check(this.fn('svc_isolation_write')(path, text) as number, `write "${text}" to`, path);
  }

  read(path: string): string | null {
    const n = this.fn('svc_isolation_read')(path, this.buf, READ_CAP) as number;
    if (n === -constants.errno.ENOENT) return null;
    if (n < 0) throw new CgroupFsError(errnoName(-n), path, 'read');
    return this.buf.toString('utf8', 0, n);
  }

  remove(path: string): void {
    this.check(this.fn('svc_isolation_remove')(path) as number, 'rmdir', path);
  }

  children(path: string): string[] {
    try {
      return readdirSync(path, { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => e.name);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
  }

  private check(err: number, what: string, path: string): void {
    if (err !== 0) throw new CgroupFsError(errnoName(err), path, what);
  }
}
