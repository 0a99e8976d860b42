/** A unit file as sections of `Key=value` lines (and comments), rendered in order. */
export type UnitLine = readonly [key: string, value: string] | { comment: string };

export interface UnitSection {
  name: 'Unit' | 'Service' | 'Timer' | 'Install';
  lines: UnitLine[];
}

/** Renders a unit: header comment lines, then each non-empty section. */
export function renderUnit(header: string[], sections: UnitSection[]): string {
  const out = header.map((h) => `# ${h}`.trimEnd());
  for (const section of sections) {
    if (section.lines.length === 0) continue;
    if (out.length > 0) out.push('');
    out.push(`[${section.name}]`);
    for (const line of section.lines) out.push('comment' in line ? `# ${line.comment}` : `${line[0]}=${line[1]}`);
  }
  return `${out.join('\n')}\n`;
}
