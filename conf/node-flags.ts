/**
 * The Node flags svcd runs with (docs/operations.md, "Node flags"). They are repeated where a
 * module cannot be imported: the shebang of bin/svcd.ts and `npm start` in package.json; a unit
 * test keeps the three the same.
 *
 * - `--max-semi-space-size=1`: V8's young generation otherwise grows to 16 MiB semi-spaces during
 *   a bulk start and keeps them (RSS with 500 programs ~110 -> ~90 MiB, bulk start no slower).
 * - `--v8-pool-size=1`: one V8 background thread instead of four (concurrent marking and
 *   compilation); each of the others kept its own malloc arena and stack (RSS with 500 programs
 *   -5 to -6 MiB 10 s after the start, bulk start no slower on 2 cores).
 */
export const SVCD_NODE_FLAGS = ['--max-semi-space-size=1', '--v8-pool-size=1'] as const;
