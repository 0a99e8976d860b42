import { join } from 'node:path';
import type { CgroupFs, FsKind } from '../../plugins/isolation/cgroup-fs.js';
import { CgroupFsError } from '../../plugins/isolation/cgroup-fs.js';

/** The controllers resource_limits needs. */
export const NEEDED = ['cpu', 'memory'] as const;

/** What svcd saw of the cgroup root (gathered by probeHost, judged by judgeHost). */
export interface HostFacts {
  root: string;
  /** The file system at the root; null when the root does not exist. */
  fsKind: FsKind | null;
  /** `<root>/cgroup.controllers`, which only cgroup v2 has; null when absent. */
  controllers: string | null;
  /** Why the root is not writable (EROFS, EACCES...), or null. */
  notWritable: string | null;
  /** Other cgroup2 mounts of the host and their controllers (to say where v2 is, on a hybrid host). */
  cgroup2Mounts: { path: string; controllers: string | null }[];
  /** svcd's effective uid (for the permission message). */
  uid: number;
}

export type HostVerdict = { ok: true } | { ok: false; reason: string };

const KIND_WORDS: Record<FsKind, string> = { cgroup2: 'a cgroup2 mount', cgroup1: 'a cgroup v1 hierarchy', tmpfs: 'a tmpfs (cgroup v1 or hybrid layout)', other: 'not a cgroup file system' };

/** Whether limits can be enforced under the root, and if not, why (one sentence a user can act on). */
export function judgeHost(f: HostFacts): HostVerdict {
  if (f.fsKind === null) return { ok: false, reason: `the cgroup root ${f.root} does not exist ([isolation] cgroup_root)` };
  if (f.controllers === null) {
    const others = f.cgroup2Mounts.filter((m) => m.path !== f.root).map((m) => `${m.path} (controllers: ${m.controllers?.trim() || 'none'})`);
    const hint = others.length > 0 ? `; cgroup2 is mounted at ${others.join(', ')}` : '';
    return { ok: false, reason: `no cgroup v2 at ${f.root}: it is ${KIND_WORDS[f.fsKind]}, so this is a cgroup v1 host${hint}` };
  }
  const present = f.controllers.split(/\s+/).filter(Boolean);
  const missing = NEEDED.filter((c) => !present.includes(c));
  if (missing.length > 0) {
    return { ok: false, reason: `the ${missing.join(' and ')} controller${missing.length > 1 ? 's are' : ' is'} not available in the cgroup v2 tree at ${f.root} (cgroup.controllers lists: ${present.join(' ') || 'none'}); on a hybrid host they are bound to cgroup v1` };
  }
  if (f.notWritable === 'EROFS') return { ok: false, reason: `${f.root} is mounted read-only (as in a container without a writable cgroup mount)` };
  if (f.notWritable === 'EACCES' || f.notWritable === 'EPERM') return { ok: false, reason: `no permission to create cgroups under ${f.root} (svcd runs as uid ${f.uid}; run it as root or delegate a cgroup to its user and set [isolation] cgroup_root)` };
  if (f.notWritable) return { ok: false, reason: `${f.root} is not writable (${f.notWritable})` };
  return { ok: true };
}

/** Mount points of cgroup2 file systems in /proc/self/mountinfo text. */
export function cgroup2MountsOf(mountinfo: string): string[] {
  const out: string[] = [];
  for (const line of mountinfo.split('\n')) {
    const [left, right] = line.split(' - ');
    if (!left || !right || right.split(' ')[0] !== 'cgroup2') continue;
    const point = left.split(' ')[4];
    if (point) out.push(point.replace(/\\([0-7]{3})/g, (_m, o: string) => String.fromCharCode(parseInt(o, 8))));
  }
  return out;
}

/** Reads the facts judgeHost needs. */
export function probeHost(fs: CgroupFs, root: string, uid: number): HostFacts {
  const readOrNull = (path: string) => {
    try {
      return fs.read(path);
    } catch {
      return null;
    }
  };
  const fsKind = fs.fsKind(root);
  const mounts = cgroup2MountsOf(readOrNull('/proc/self/mountinfo') ?? '');
  return {
    root,
    fsKind,
    controllers: fsKind === null ? null : readOrNull(join(root, 'cgroup.controllers')),
    notWritable: fsKind === null ? null : fs.notWritable(root),
    cgroup2Mounts: mounts.map((path) => ({ path, controllers: readOrNull(join(path, 'cgroup.controllers')) })),
    uid,
  };
}

/**
 * Creates `<root>/svc` with the cpu and memory controllers enabled for its children (in the
 * root's and its own cgroup.subtree_control). Returns why it could not, or null.
 */
export function prepareParent(fs: CgroupFs, root: string): string | null {
  const parent = join(root, 'svc');
  const enable = `+${NEEDED.join(' +')}`;
  try {
    fs.write(join(root, 'cgroup.subtree_control'), enable);
    fs.mkdir(parent);
    fs.write(join(parent, 'cgroup.subtree_control'), enable);
    return null;
  } catch (err) {
    if (!(err instanceof CgroupFsError)) throw err;
    const hint = err.code === 'EBUSY' ? ' (the cgroup has processes of its own: cgroup v2 allows controllers only for the children of an empty cgroup; set [isolation] cgroup_root to a delegated, empty one)' : '';
    return `cannot enable the cpu and memory controllers for ${parent}: ${err.message}${hint}`;
  }
}
