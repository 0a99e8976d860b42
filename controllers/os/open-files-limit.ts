import type { SpawnDecorator } from './decorated.js';

/**
 * Every process svcd starts gets `soft` as its open-files limit (capped at the hard limit by
 * the spawner or svc-exec). Node raised svcd's own soft limit to the hard one, which programs
 * would inherit; systemd and the kernel give 1024, which select()-based code relies on, and a
 * program that needs more raises it itself up to the hard limit. 0: leave svcd's own.
 */
export function openFilesLimit(soft: number): SpawnDecorator[] {
  return soft > 0 ? [(spec) => ({ ...spec, openFilesLimit: soft })] : [];
}
