import { PROGRAM_NAME_PATTERN } from '../../../state/schema/program-schema.js';

const VALID = new RegExp(PROGRAM_NAME_PATTERN);

/**
 * An svc program name for a source name: kept when valid, else invalid characters become `-`,
 * leading ones are dropped and it is cut to 64 characters. Returns null when nothing is left.
 */
export function toProgramName(raw: string): string | null {
  if (VALID.test(raw)) return raw;
  const cleaned = raw
    .replace(/[^A-Za-z0-9_.@-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 64)
    .replace(/-+$/, '');
  return cleaned && VALID.test(cleaned) ? cleaned : null;
}

/** Hands out unique program names in source order; a clash gets `-2`, `-3`, ... */
export class NameRegistry {
  private readonly taken = new Set<string>();

  /** The unique name for `wanted` (already valid). */
  claim(wanted: string): string {
    let name = wanted;
    for (let n = 2; this.taken.has(name); n++) name = `${wanted.slice(0, 60)}-${n}`;
    this.taken.add(name);
    return name;
  }
}
