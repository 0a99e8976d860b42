import { crc32, gzipSync } from 'node:zlib';
import { Header } from 'tar';

/** One archive member for test fixtures; `type` follows tar's names. */
export interface FixtureEntry {
  path: string;
  data?: string | Buffer;
  type?: 'File' | 'Directory' | 'SymbolicLink' | 'Link' | 'CharacterDevice' | 'FIFO';
  linkpath?: string;
  mode?: number;
}

/** A tar archive built header by header (so that hostile entries can be written), optionally gzipped. */
export function tarArchive(entries: FixtureEntry[], gzip = false): Buffer {
  const blocks: Buffer[] = [];
  for (const e of entries) {
    const data = Buffer.from(e.data ?? '');
    const type = e.type ?? 'File';
    const header = Buffer.alloc(512);
    new Header({ path: e.path, mode: e.mode ?? 0o755, uid: 0, gid: 0, size: type === 'File' ? data.length : 0, mtime: new Date(0), type, linkpath: e.linkpath }).encode(header, 0);
    blocks.push(header);
    if (type === 'File' && data.length > 0) blocks.push(data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  const tar = Buffer.concat(blocks);
  return gzip ? gzipSync(tar) : tar;
}

const UNIX_TYPE: Record<NonNullable<FixtureEntry['type']>, number> = {
  File: 0o100000,
  Directory: 0o040000,
  SymbolicLink: 0o120000,
  Link: 0o100000,
  CharacterDevice: 0o020000,
  FIFO: 0o010000,
};

/** A zip archive of stored (uncompressed) entries with Unix modes in the external attributes. */
export function zipArchive(entries: FixtureEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.path);
    const data = Buffer.from(e.type === 'SymbolicLink' ? (e.linkpath ?? '') : (e.data ?? ''));
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, data);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by Unix
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE((((UNIX_TYPE[e.type ?? 'File'] | (e.mode ?? 0o755)) << 16) >>> 0) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + data.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}
