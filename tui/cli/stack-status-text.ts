import type { StackStatusBody } from '../../stacks/stack-problems.js';
import { timestamp } from '../client/format.js';

/** `svc stack status` as text: each watched file, then each git source. */
export function stackStatusText(body: StackStatusBody): string {
  const out: string[] = [`watched directory ${body.dir} (${body.watching ? 'watching' : 'not watching'})`];
  if (body.files.length === 0) out.push('  no stack files applied');
  for (const f of body.files) {
    // The apply lines also name the programs it pruned, which the file no longer has.
    const programs = f.lines.filter((l) => !l.startsWith('pruned ')).length;
    out.push(`  ${f.file}  ${f.state === 'ok' ? 'ok' : f.state}  ${timestamp(f.at)}${f.state === 'ok' ? `  (${programs} program${programs === 1 ? '' : 's'})` : ''}`);
    if (f.message) for (const line of f.message.split('\n')) out.push(`    ${line}`);
    if (f.warning) out.push(`    warning: ${f.warning}`);
  }
  for (const g of body.git ?? []) {
    out.push('', `git source ${g.name} (${g.source}): ${g.url} ${g.ref}${g.path ? ` path ${g.path}` : ''} host ${g.host}${g.verify ? ', signed commits only' : ''}${g.allow_drift ? ', drift allowed' : ''}`);
    const a = g.applied;
    out.push(a ? `  applied   ${a.commit.slice(0, 12)} "${a.subject}" (committed ${timestamp(a.time)}, applied ${timestamp(a.applied_at)})` : '  applied   nothing yet');
    if (g.pinned) out.push(`  pinned    ${g.pinned.slice(0, 12)} (svc sync ${g.name} --unpin to follow ${g.ref} again)`);
    out.push(`  head      ${g.head ? g.head.slice(0, 12) : '-'}`);
    out.push(`  fetched   ${g.last_fetch ? `${timestamp(g.last_fetch.at)} ${g.last_fetch.ok ? 'ok' : 'failed'}` : 'never'}`);
    if (g.last_error) {
      out.push(`  error     ${timestamp(g.last_error.at)}${g.last_error.commit ? ` commit ${g.last_error.commit.slice(0, 12)}` : ''}`);
      for (const line of g.last_error.message.split('\n')) out.push(`    ${line}`);
    }
  }
  return out.join('\n');
}
