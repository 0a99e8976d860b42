import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The installation root when `--root` is not given: `$SVC_ROOT`, else the current directory,
 * except in a source checkout of svc (package.json and bin/svcd.ts beside it), where it is
 * `./.svc/`: runtime folders (data, logs, run, the watched `stacks/`) must never be source
 * folders, or a stack file dropped in the watched directory would land in the stack code.
 */
export function defaultRoot(cwd: string, env: NodeJS.ProcessEnv): { root: string; checkout: boolean } {
  if (env.SVC_ROOT) return { root: resolve(env.SVC_ROOT), checkout: false };
  const checkout = isSourceCheckout(cwd);
  return { root: checkout ? join(resolve(cwd), '.svc') : resolve(cwd), checkout };
}

export function isSourceCheckout(dir: string): boolean {
  return existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'bin', 'svcd.ts'));
}
