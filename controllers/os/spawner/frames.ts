import type { ExitInfo, RecoveredProcess, SpawnSpec } from '../port.js';
import { errorOf, type SpawnerRequestError } from './connection.js';
import { Field, i32, SpawnFlag, text, u64, type FieldList, type Frame } from './protocol.js';

/** An EXIT frame: which child, how it ended, and the serial to acknowledge. */
export interface SpawnerExit extends RecoveredProcess {
  serial: number;
  exit: ExitInfo;
  /** Captured output (capture requests only). */
  output: string;
  /** Set when the child never ran: it was forked but could not exec (native/spawner/launch.h). */
  failure?: SpawnerRequestError;
}

export function liveOf(f: Frame): RecoveredProcess {
  return { pid: i32(f, Field.PID), startTime: u64(f, Field.START_TIME), startedAt: u64(f, Field.STARTED_AT), tag: text(f, Field.TAG) };
}

export function exitOf(f: Frame): SpawnerExit {
  const code = i32(f, Field.CODE);
  const signal = i32(f, Field.SIGNO);
  return {
    ...liveOf(f),
    serial: u64(f, Field.SERIAL),
    exit: {
      code: code < 0 ? null : code,
      signal: signal === 0 ? null : signal,
      usage: { userMs: u64(f, Field.UTIME_US) / 1000, systemMs: u64(f, Field.STIME_US) / 1000, maxRssBytes: u64(f, Field.MAXRSS_KB) * 1024 },
      ...(f.fields.has(Field.ENDED_AT) ? { endedAt: u64(f, Field.ENDED_AT) } : {}),
    },
    output: text(f, Field.OUTPUT),
    ...(f.fields.has(Field.ERRNO) ? { failure: errorOf(f) } : {}),
  };
}

/** The SPAWN request for a spec; `capture` sends fds 1 and 2 to a pipe the spawner reads. */
export function spawnFields(spec: Omit<SpawnSpec, 'stdoutPath' | 'stderrPath'> & Partial<SpawnSpec>, capture = false): FieldList {
  const fields: FieldList = [
    [Field.FILE, spec.file],
    [Field.CWD, spec.cwd],
    [Field.FLAGS, { u32: SpawnFlag.KILL_GROUP_ON_EXIT | (capture ? SpawnFlag.CAPTURE : 0) }],
  ];
  for (const a of spec.args) fields.push([Field.ARG, a]);
  for (const k in spec.env) fields.push([Field.ENV, `${k}=${spec.env[k]}`]);
  if (spec.stdinPath) fields.push([Field.STDIN, spec.stdinPath]);
  if (!capture && spec.stdoutPath) fields.push([Field.STDOUT, spec.stdoutPath]);
  if (!capture && spec.stderrPath) fields.push([Field.STDERR, spec.stderrPath]);
  if (spec.uid !== undefined) fields.push([Field.UID, { u32: spec.uid }]);
  if (spec.gid !== undefined) fields.push([Field.GID, { u32: spec.gid }]);
  for (const g of spec.groups ?? []) fields.push([Field.GROUPS, { u32: g }]);
  if (spec.tag) fields.push([Field.TAG, spec.tag]);
  if (spec.cgroup) fields.push([Field.CGROUP, spec.cgroup]);
  if (spec.openFilesLimit !== undefined) fields.push([Field.NOFILE, { u64: spec.openFilesLimit }]);
  return fields;
}

// native/spawner/launch.h enum launch_stage
const STAGE = { REQUEST: 1, STDOUT: 2, STDERR: 3, CHDIR: 8, SETGID: 10, SETUID: 11, EXEC: 12, CGROUP: 13, STDIN: 14, RLIMIT: 15 } as const;

/** The same wording as LinuxOs for the same failures, and the failing step where Node cannot tell. */
export function describeSpawnFailure(spec: { file: string; cwd: string; cgroup?: string }, err: SpawnerRequestError): string {
  switch (err.stage) {
    case STAGE.CGROUP:
      // "cgroup <dir>: <why>" (at once) or "cgroup: <why>" (from the child): the why is last.
      return `cannot join cgroup ${spec.cgroup ?? ''}: ${err.message.slice(err.message.lastIndexOf(': ') + 2)}`;
    case STAGE.EXEC:
      if (err.code === 'ENOENT') return `command not found: ${spec.file} (cwd ${spec.cwd})`;
      if (err.code === 'EACCES') return `permission denied: ${spec.file}`;
      return `${spec.file}: ${err.message}`;
    case STAGE.CHDIR:
      if (err.code === 'ENOENT') return `cwd ${spec.cwd} does not exist`;
      if (err.code === 'ENOTDIR') return `cwd ${spec.cwd} is not a directory`;
      return `cwd ${spec.cwd}: ${err.code}`;
    case STAGE.STDOUT:
    case STAGE.STDERR:
      return `cannot open log file: ${err.message}`;
    case STAGE.STDIN:
      return `cannot open stdin file: ${err.message}`;
    case STAGE.SETUID:
    case STAGE.SETGID:
      return `cannot switch user or group: ${err.message}`;
    case STAGE.RLIMIT:
      return `cannot set the open-files limit ([supervisor] limit_nofile): ${err.message}`;
    case STAGE.REQUEST:
      return `${spec.file}: invalid spawn request: ${err.message}`;
    default:
      return `${spec.file}: ${err.message}`;
  }
}
