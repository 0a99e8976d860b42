/** The apply answer of `PUT /api/v1/stack` as `svc apply` prints it: `+ created web`, ... */
const MARKS: Record<string, string> = { created: '+', updated: '~', unchanged: '=', pruned: '-' };

export function planText(res: { lines: string[]; dry_run: boolean }): string {
  const lines = res.lines.map((l) => `${MARKS[l.split(' ')[0] ?? ''] ?? '?'} ${l}`);
  if (res.dry_run) lines.push('(dry run: nothing was changed)');
  return lines.length > 0 ? lines.join('\n') : 'empty stack: nothing to do';
}
