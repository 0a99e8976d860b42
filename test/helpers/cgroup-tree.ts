import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempRoot } from './daemon.js';

/**
 * A directory that stands in for a cgroup v2 root: `cgroup.controllers` lists the controllers
 * (cpu and memory by default) and `cgroup.subtree_control` is empty. svcd writes into it as it
 * would into /sys/fs/cgroup; plain files keep what was written, so tests read it back.
 */
export function fakeCgroupTree(controllers = 'cpuset cpu io memory hugetlb pids'): string {
  const root = join(tempRoot('svc-cgroup-'), 'cgroup');
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'cgroup.controllers'), `${controllers}\n`);
  writeFileSync(join(root, 'cgroup.subtree_control'), '');
  return root;
}

/** A file of the fake tree, or null when absent. */
export function readTreeFile(root: string, ...path: string[]): string | null {
  const file = join(root, ...path);
  return existsSync(file) ? readFileSync(file, 'utf8') : null;
}

/**
 * Where real enforcement can be tested: /sys/fs/cgroup is cgroup v2 with the cpu and memory
 * controllers, and writable by this process. Returns null when it can, else the reason to skip.
 */
export function realCgroupSkipReason(): string | null {
  const root = '/sys/fs/cgroup';
  let controllers: string;
  try {
    controllers = readFileSync(join(root, 'cgroup.controllers'), 'utf8');
  } catch {
    return `${root} is not cgroup v2 (no cgroup.controllers): real enforcement tests need a cgroup v2 host`;
  }
  const list = controllers.split(/\s+/);
  if (!list.includes('cpu') || !list.includes('memory')) return `${root} has no cpu and memory controllers (cgroup.controllers: ${controllers.trim()})`;
  if (process.getuid?.() !== 0) return 'real enforcement tests need root to write under /sys/fs/cgroup';
  return null;
}
