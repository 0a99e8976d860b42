import type { BenchProgram } from './managers/manager.js';

export const SLEEP = '/bin/sleep';
export const BASH = '/bin/bash';

/** N long-running programs: `sleep 3600` each. */
export function sleepPrograms(n: number, prefix: string): BenchProgram[] {
  return Array.from({ length: n }, (_, i) => ({ name: `${prefix}-${i}`, command: SLEEP, args: ['3600'] }));
}

/**
 * A program that appends its start time (µs, from bash's builtin $EPOCHREALTIME: no fork) to
 * `file` and exits 1 at once. The gaps between lines are the restart intervals.
 */
export function crashProgram(file: string): { command: string; args: string[] } {
  return { command: BASH, args: ['-c', `echo $EPOCHREALTIME >> ${file}; exit 1`] };
}

export function crashingProgram(name: string, file: string): BenchProgram {
  return { name, ...crashProgram(file), restart: 'fast-restart' };
}

/** Start times in ms from a stamp file written by crashProgram. */
export function parseStamps(text: string): number[] {
  return text
    .split('\n')
    .map((l) => Number(l.trim().replace(',', '.')) * 1000)
    .filter((v) => Number.isFinite(v) && v > 0);
}
