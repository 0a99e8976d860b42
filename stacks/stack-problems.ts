import type { GitSourceStatus } from './git/status.js';
import type { StackDirStatus } from './status.js';

/** GET /api/v1/stack/status: the watched directory and the git sources. */
export type StackStatusBody = StackDirStatus & { git?: GitSourceStatus[] };

/** Every refused stack source, one message each (`stack:web.toml: path:line:col: ...`). Pure: the CLI and the dashboard share it. */
export function stackProblems(body: StackStatusBody): string[] {
  const files = body.files.filter((f) => f.state === 'error').map((f) => `stack:${f.file}: ${f.message ?? 'refused'}`);
  const git = (body.git ?? []).filter((g) => g.last_error).map((g) => `git:${g.name}: ${g.last_error?.message ?? ''}`);
  return [...files, ...git];
}

/** The one-line banner (`svc list`, the dashboard) when a stack source is refused; null when all is well. */
export function stackBanner(body: StackStatusBody): string | null {
  const problems = stackProblems(body);
  if (problems.length === 0) return null;
  const first = (problems[0] ?? '').split('\n')[0] ?? '';
  const short = first.length > 160 ? `${first.slice(0, 157)}...` : first;
  const more = problems.length > 1 ? ` (+${problems.length - 1} more)` : '';
  return `warning: ${problems.length} stack source${problems.length === 1 ? '' : 's'} refused, the last good state keeps running: ${short}${more}; see svc stack status`;
}
