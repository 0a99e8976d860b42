/** The apply answer of `PUT /api/v1/stack` as `svc apply` prints it: `+ created web`, ... */
const MARKS: Record<string, string> = { created: '+', updated: '~', unchanged: '=', pruned: '-' };

/** `planFlag`: the command takes `--plan`, so a dry run says how to apply exactly its plan. */
export function planText(res: { lines: string[]; dry_run: boolean; plan?: string }, planFlag = false): string {
  const lines = res.lines.map((l) => `${MARKS[l.split(' ')[0] ?? ''] ?? '?'} ${l}`);
  if (res.dry_run) lines.push(planFlag && res.plan ? `(dry run: nothing was changed; --plan ${res.plan} applies exactly this plan)` : '(dry run: nothing was changed)');
  return lines.length > 0 ? lines.join('\n') : 'empty stack: nothing to do';
}
