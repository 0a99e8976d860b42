import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { constants as osConstants } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { CaptureSpec } from './port.js';
import { describeSpawnError } from './spawn-errors.js';

/** dist/native/svc-exec, built by `npm run build` from native/exec. */
export const EXEC_HELPER = fileURLToPath(new URL('../../native/svc-exec', import.meta.url));

/** What Node's spawn is given: the file, its arguments and the identity Node itself switches to. */
export interface ChildProcessPlan {
  file: string;
  args: string[];
  uid?: number;
  gid?: number;
  /** Through svc-exec: the fd (a pipe) where it reports a failure before the program runs. */
  statusFd?: number;
}

/** svc-exec's status fd: the first after stdio. */
const STATUS_FD = 3;

/**
 * How Node's child_process starts a spec. Node cannot run code between fork and exec, so the
 * program is started through svc-exec (native/exec), which joins the cgroup, closes every fd
 * above 2 (svcd's LevelDB files are not close-on-exec: each program held svcd's state store open)
 * and switches identity, then execs the program in place. The command is looked up here first,
 * as the spawner does, so that a missing one is still a spawn failure naming it, not an exit 127.
 * Without the helper (no native build) the program is spawned directly, inheriting those fds,
 * and a spec with a cgroup is an error. Returns the reason, naming the field, when it cannot run.
 */
export function childProcessPlan(spec: CaptureSpec, helper = EXEC_HELPER): ChildProcessPlan | Error {
  const nul = spec.file.includes('\0') ? 'command' : spec.args.findIndex((a) => a.includes('\0'));
  if (nul !== -1) return new Error(`${typeof nul === 'number' ? `args[${nul}]` : nul}: must not contain a NUL byte`);
  if (!existsSync(helper)) {
    if (spec.cgroup) return new Error(`cannot join cgroup ${spec.cgroup}: ${helper} is missing (run npm run build)`);
    return { file: spec.file, args: spec.args, uid: spec.uid, gid: spec.gid };
  }
  const missing = executableProblem(spec);
  if (missing) return new Error(describeSpawnError(spec, Object.assign(new Error(missing), { code: missing })));
  const options = [
    ...(spec.cgroup ? ['--cgroup', spec.cgroup] : []),
    ...(spec.openFilesLimit !== undefined ? ['--nofile', String(spec.openFilesLimit)] : []),
    ...(spec.uid !== undefined ? ['--uid', String(spec.uid)] : []),
    ...(spec.gid !== undefined ? ['--gid', String(spec.gid)] : []),
    ...(spec.groups?.length ? ['--groups', spec.groups.join(',')] : []),
  ];
  return { file: helper, args: ['--status-fd', String(STATUS_FD), ...options, '--', spec.file, ...spec.args], statusFd: STATUS_FD };
}

/**
 * What svc-exec wrote on its status fd ("<errno> <step>") in words, naming the field at fault, as
 * svc-spawner's failures read; null for an empty report (the program runs).
 */
export function describeHelperFailure(spec: CaptureSpec, report: string): string | null {
  const [errno, step] = report.trim().split(' ');
  if (!errno) return null;
  const code = Object.entries(osConstants.errno).find(([, n]) => n === Number(errno))?.[0] ?? `errno ${errno}`;
  if (step === 'exec') return describeSpawnError(spec, Object.assign(new Error(code), { code }));
  if (step === 'cgroup') return `cannot join cgroup ${spec.cgroup}: ${code}`;
  if (step === 'setrlimit') return `cannot set the open-files limit to ${spec.openFilesLimit} ([supervisor] limit_nofile): ${code}`;
  return `${step === 'setuid' ? 'user' : 'group'}: cannot switch (${step}): ${code}`;
}

/**
 * ENOENT or EACCES when execvp would not find an executable for spec.file (PATH from the
 * child's environment, default /usr/bin:/bin as libuv's; relative paths from its cwd), else null.
 */
function executableProblem(spec: CaptureSpec): 'ENOENT' | 'EACCES' | null {
  const candidates = spec.file.includes('/') ? [spec.file] : (spec.env.PATH ?? '/usr/bin:/bin').split(':').map((dir) => join(dir || '.', spec.file));
  let denied = false;
  for (const candidate of candidates) {
    const full = isAbsolute(candidate) ? candidate : resolve(spec.cwd, candidate);
    try {
      if (!statSync(full).isFile()) {
        denied = true;
        continue;
      }
      accessSync(full, constants.X_OK);
      return null;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EACCES') denied = true;
      else if (code !== 'ENOENT' && code !== 'ENOTDIR') return null; // let the exec say what it is
    }
  }
  return denied ? 'EACCES' : 'ENOENT';
}
