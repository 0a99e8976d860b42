/**
 * The svcd <-> svc-spawner wire format (native/spawner/PROTOCOL.md): length-prefixed frames of
 * little-endian type/seq headers and key-length-value fields. Pure encoding and decoding.
 */
export const WIRE_VERSION = 1;
export const MAX_FRAME = 4 << 20;
const HEADER = 9;

export const Msg = {
  HELLO: 1,
  SPAWN: 2,
  SIGNAL: 3,
  ACK: 4,
  BYE: 5,
  OK: 16,
  SPAWNED: 17,
  ERROR: 18,
  LIVE: 19,
  EXIT: 20,
} as const;

export const Field = {
  FILE: 1,
  ARG: 2,
  ENV: 3,
  CWD: 4,
  STDOUT: 5,
  STDERR: 6,
  UID: 7,
  GID: 8,
  TAG: 9,
  FLAGS: 10,
  CGROUP: 11,
  PID: 12,
  SIGNO: 13,
  GROUP: 14,
  SERIAL: 15,
  START_TIME: 16,
  STARTED_AT: 17,
  CODE: 18,
  UTIME_US: 19,
  STIME_US: 20,
  MAXRSS_KB: 21,
  OUTPUT: 22,
  ERRNO: 23,
  STAGE: 24,
  MESSAGE: 25,
  VERSION: 26,
  LIVE: 27,
  HELD: 28,
  STDIN: 29,
  ENDED_AT: 30,
  GROUPS: 31,
  FEATURES: 32,
  NOFILE: 33,
} as const;

/**
 * What a spawner understands beyond version 1's first fields (HELLO's OK, FEATURES; absent: none).
 * A spawner outlives the svcd that started it, so a newer svcd may find an older one running.
 */
export const Feature = { GROUPS: 1, NOFILE: 2 } as const;

export const SpawnFlag = { KILL_GROUP_ON_EXIT: 1, CAPTURE: 2 } as const;

/** A field value: text, a 4-byte integer (i32/u32 by sign), an 8-byte integer, or raw bytes. */
export type FieldValue = string | { u32: number } | { i32: number } | { u64: bigint | number } | Buffer;
export type FieldList = [key: number, value: FieldValue][];

export interface Frame {
  type: number;
  seq: number;
  fields: Map<number, Buffer[]>;
}

function valueLength(value: FieldValue): number {
  if (typeof value === 'string') return Buffer.byteLength(value, 'utf8');
  if (Buffer.isBuffer(value)) return value.length;
  return 'u64' in value ? 8 : 4;
}

/** Writes one value at `at`; returns its length. */
function writeValue(out: Buffer, at: number, value: FieldValue): number {
  if (typeof value === 'string') return out.write(value, at, 'utf8');
  if (Buffer.isBuffer(value)) return value.copy(out, at);
  if ('u32' in value) return out.writeUInt32LE(value.u32, at) - at;
  if ('i32' in value) return out.writeInt32LE(value.i32, at) - at;
  return out.writeBigUInt64LE(BigInt(value.u64), at) - at;
}

/**
 * One frame in one buffer, sized first and written in place: a SPAWN carries the whole
 * environment, and a Buffer per field made this most of svcd's cost of sending one (10 % of
 * its samples during a start of 500).
 * Every byte is written, so the unzeroed allocation never sends stale memory.
 */
export function encodeFrame(type: number, seq: number, fields: FieldList): Buffer {
  let size = HEADER;
  for (const [, value] of fields) size += 6 + valueLength(value);
  const out = Buffer.allocUnsafe(size);
  out.writeUInt32LE(size - 4, 0);
  out.writeUInt8(type, 4);
  out.writeUInt32LE(seq, 5);
  let at = HEADER;
  for (const [key, value] of fields) {
    const length = writeValue(out, at + 6, value);
    out.writeUInt16LE(key, at);
    out.writeUInt32LE(length, at + 2);
    at += 6 + length;
  }
  return out;
}

export class ProtocolError extends Error {
  override name = 'ProtocolError';
}

export function decodeFields(body: Buffer): Map<number, Buffer[]> {
  const fields = new Map<number, Buffer[]>();
  let at = 0;
  while (at < body.length) {
    if (body.length - at < 6) throw new ProtocolError('a field header runs past the frame');
    const key = body.readUInt16LE(at);
    const size = body.readUInt32LE(at + 2);
    if (size > body.length - at - 6) throw new ProtocolError(`field ${key} runs past the frame`);
    const value = body.subarray(at + 6, at + 6 + size);
    const list = fields.get(key);
    if (list) list.push(value);
    else fields.set(key, [value]);
    at += 6 + size;
  }
  return fields;
}

/** Splits a byte stream into frames; throws ProtocolError on a length no peer would send. */
export class FrameDecoder {
  private pending: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): Frame[] {
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    const frames: Frame[] = [];
    let at = 0;
    while (this.pending.length - at >= 4) {
      const len = this.pending.readUInt32LE(at);
      if (len < HEADER - 4 || len > MAX_FRAME * 4) throw new ProtocolError(`bad frame length ${len}`);
      if (this.pending.length - at - 4 < len) break;
      const type = this.pending.readUInt8(at + 4);
      const seq = this.pending.readUInt32LE(at + 5);
      frames.push({ type, seq, fields: decodeFields(this.pending.subarray(at + HEADER, at + 4 + len)) });
      at += 4 + len;
    }
    this.pending = at === this.pending.length ? Buffer.alloc(0) : Buffer.from(this.pending.subarray(at));
    return frames;
  }
}

// Readers for decoded fields; a missing or mis-sized field is a protocol error.
function one(f: Frame, key: number): Buffer | undefined {
  return f.fields.get(key)?.[0];
}

export function i32(f: Frame, key: number): number {
  const b = one(f, key);
  if (b?.length !== 4) throw new ProtocolError(`frame ${f.type}: field ${key} is not 4 bytes`);
  return b.readInt32LE(0);
}

export function u64(f: Frame, key: number): number {
  const b = one(f, key);
  if (b?.length !== 8) throw new ProtocolError(`frame ${f.type}: field ${key} is not 8 bytes`);
  // Two 32-bit halves: exact below 2^53 (every time, serial and size the spawner sends), rounded
  // to the nearest double above it as Number(BigInt) would, without a BigInt per field (7 per EXIT).
  return b.readUInt32LE(0) + b.readUInt32LE(4) * 0x1_0000_0000;
}

export function text(f: Frame, key: number): string {
  return one(f, key)?.toString('utf8') ?? '';
}
