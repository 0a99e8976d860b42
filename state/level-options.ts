/**
 * LevelDB sizes for svc's two stores. The defaults (8 MiB block cache, 4 MiB write buffer each)
 * suit large databases; the program store holds a few hundred small records and is read from
 * memory, and the event history is written in batches and queried by range, so small buffers
 * cost nothing measurable and keep svcd's memory down.
 */
export const PROGRAM_STORE_OPTIONS = { cacheSize: 512 * 1024, writeBufferSize: 512 * 1024 } as const;
export const EVENT_STORE_OPTIONS = { cacheSize: 2 * 1024 * 1024, writeBufferSize: 2 * 1024 * 1024 } as const;
