import type { GitSourceStatus } from '../../stacks/git/status.js';
import type { StackDirStatus } from '../../stacks/status.js';
import { timestamp } from './format.js';

/** GET /api/v1/stack/status: the watched directory and the git sources. */
export type StackStatusBody = StackDirStatus & { git?: GitSourceStatus[] };

/** Every refused stack source, one message each (`stack:web.toml: path:line:col: ...`). */
export function stackProblems(body: StackStatusBody): string[] {
  const files = body.files.filter((f) => f.state === 'error').map((f) => `stack:${f.file}: ${f.message ?? 'refused'}`);
  const git = (body.git ?? []).filter((g) => g.last_error).map((g) => `git:${g.name}: ${g.last_error?.message ?? ''}`);
  return [...files, ...git];
}

/** The one-line banner `svc list` prints when a stack source is refused; null when all is well. */
export function stackBanner(body: StackStatusBody): string | null {
  const problems = stackProblems(body);
  if (problems.length === 0) return null;
  const first = (problems[0] ?? '').split('\n')[0] ?? '';
  const short = first.length > 160 ? `${first.slice(0, 157)}...` : first;
  const more = problems.length > 1 ? ` (+${problems.length - 1} more)` : '';
  return `warning: ${problems.length} stack source${problems.length === 1 ? '' : 's'} refused, the last good state keeps running: ${short}${more}; see svc stack status`;
}

/** `svc stack status` as text: each watched file, then each git source. */
export function stackStatusText(body: StackStatusBody): string {
  const out: string[] = [`watched directory ${body.dir} (${body.watching ? 'watching' : 'not watching'})`];
  if (body.files.length === 0) out.push('  no stack files applied');
  for (const f of body.files) {
    out.push(`  ${f.file}  ${f.state === 'ok' ? 'ok' : f.state}  ${timestamp(f.at)}${f.state === 'ok' ? `  (${f.lines.length} program${f.lines.length === 1 ? '' : 's'})` : ''}`);
    if (f.message) for (const line of f.message.split('\n')) out.push(`    ${line}`);
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
