/**
 * Spawn failures that cannot heal by themselves (the wording of controllers/os/spawn-errors.ts):
 * the command is not there or not executable, or the working directory is missing. Retrying
 * them in Backoff forever only hides the problem, so the planner goes Fatal at once with the
 * reason (docs/states.md); `svc start` tries again once it is fixed. A missing env_file or a
 * user that cannot be switched to are left to the restart policy: a deploy may still bring them.
 */
const PERMANENT = [/^command not found: /, /^permission denied: /, /^cwd .* (does not exist|is not a directory)$/];

export function isPermanentSpawnError(error: string | null | undefined): boolean {
  return typeof error === 'string' && PERMANENT.some((re) => re.test(error));
}
