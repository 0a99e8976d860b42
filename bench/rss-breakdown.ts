import { readFileSync } from 'node:fs';

/** Resident KiB of one process by kind of mapping (from /proc/<pid>/smaps): where its RSS is. */
export interface RssBreakdown {
  /** The node executable's own pages (code, read-only data): file-backed, shared with every node. */
  nodeBinary: number;
  /** Shared libraries and native addons (.so, .node): libc, libstdc++, classic-level's LevelDB. */
  libraries: number;
  /** malloc's main arena ([heap]): LevelDB, libuv, V8's own C++ structures, Buffers. */
  brkHeap: number;
  /** Anonymous mappings: V8's JavaScript heap pages, malloc arenas of other threads, thread stacks. */
  anonymous: number;
  /** Anything else (the main stack, vdso, other files). */
  other: number;
}

export function rssBreakdown(pid: number): RssBreakdown {
  const out: RssBreakdown = { nodeBinary: 0, libraries: 0, brkHeap: 0, anonymous: 0, other: 0 };
  let kind: keyof RssBreakdown = 'other';
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'latin1').split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const name = head[1];
      kind = name === '' ? 'anonymous' : name === '[heap]' ? 'brkHeap' : /\/node$/.test(name) ? 'nodeBinary' : /\.(so(\.[\d.]+)?|node)$/.test(name) ? 'libraries' : 'other';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) out[kind] += Number(rss[1]);
  }
  return out;
}

export function formatBreakdown(b: RssBreakdown): string {
  const mib = (kib: number) => (kib / 1024).toFixed(1);
  return `node binary ${mib(b.nodeBinary)}, libraries ${mib(b.libraries)}, malloc [heap] ${mib(b.brkHeap)}, anonymous (V8 heap, arenas, stacks) ${mib(b.anonymous)}, other ${mib(b.other)} MiB`;
}
