/**
 * The variables process-compose gives every process (src/app: `PC_PROC_NAME`, the process's key
 * in `processes`, the same for every replica; `PC_REPLICA_NUM`, the replica number from 0), and
 * the `{PC_REPLICA_NUM}` placeholder of `log_location`. svcd sets neither, so the import writes
 * them into `env` where a command uses them.
 */
export const PC_VARIABLES = ['PC_PROC_NAME', 'PC_REPLICA_NUM'] as const;
export type PcVariable = (typeof PC_VARIABLES)[number];

const REFERENCE = /\bPC_(PROC_NAME|REPLICA_NUM)\b/g;

/** process-compose's `$$` escape (a `$` once it has expanded the file), unless expansion is off. */
export function unescapeDollars(text: string, expandOn: boolean): string {
  return expandOn ? text.replace(/\$\$/g, '$') : text;
}

/** The PC_* names a command line mentions (`$PC_REPLICA_NUM`, `${PC_PROC_NAME}`, `$((8000 + PC_REPLICA_NUM))`). */
export function pcReferences(lines: string[]): PcVariable[] {
  const found = new Set<PcVariable>();
  for (const line of lines) for (const m of line.matchAll(REFERENCE)) found.add(`PC_${m[1]}` as PcVariable);
  return PC_VARIABLES.filter((v) => found.has(v));
}

/**
 * The PC_* names written `$NAME`/`${NAME}` without the `$$` escape: process-compose expands those
 * when it loads the file, before any process has them, so it ran the command with its own value.
 */
export function expandedAtLoad(raw: string): PcVariable[] {
  const found = new Set<PcVariable>();
  for (const m of raw.matchAll(/\$\$|\$\{?PC_(PROC_NAME|REPLICA_NUM)\b/g)) if (m[1]) found.add(`PC_${m[1]}` as PcVariable);
  return PC_VARIABLES.filter((v) => found.has(v));
}

/** The values process-compose gives replica `replica` of process `key`. */
export function pcValues(key: string, replica: number): Record<PcVariable, string> {
  return { PC_PROC_NAME: key, PC_REPLICA_NUM: String(replica) };
}

/** `log_location` of one replica: `{PC_REPLICA_NUM}` replaced, else `.<n>` appended when there are several (process-compose `getLogPath`). */
export function replicaLogPath(path: string, replica: number, replicas: number): string {
  if (path.includes('{PC_REPLICA_NUM}')) return path.split('{PC_REPLICA_NUM}').join(String(replica));
  return replicas > 1 ? `${path}.${replica}` : path;
}
