import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SvcError } from '../../state/errors.js';
import { isStackFileName } from '../file-names.js';
import type { CommitInfo, GitPort } from './port.js';
import type { GitSourceConfig } from './source-config.js';

const TIMEOUT_MS = 120_000;
const MAX_OUTPUT = 64 * 1024 * 1024;

/**
 * The system `git` on svcd's own bare cache `<cacheDir>/<name>.git`, one per source: the user's
 * working copies are never read or written. The ref followed is fetched to `refs/svc/head`;
 * older commits stay reachable through it for `svc sync --to`.
 */
export function gitCli(cacheDir: string): GitPort {
  const repo = (src: GitSourceConfig) => join(cacheDir, `${src.name}.git`);

  const git = (src: GitSourceConfig, args: string[], opts: { env?: Record<string, string> } = {}): Promise<string> =>
    new Promise((resolve, reject) => {
      const env = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: '/bin/false', LC_ALL: 'C', ...opts.env };
      execFile('git', ['--git-dir', repo(src), ...args], { env, timeout: TIMEOUT_MS, maxBuffer: MAX_OUTPUT, encoding: 'utf8' }, (err, stdout, stderr) => {
        if (err) {
          const detail = (stderr || err.message).trim().split('\n').filter((l) => l !== '').slice(-3).join('; ');
          reject(new SvcError('SVC_INVALID', (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'git is not installed (scripts/install-system-deps.sh)' : `git ${args[0] ?? ''}: ${detail}`));
        } else resolve(stdout);
      });
    });

  const ensureRepo = async (src: GitSourceConfig) => {
    mkdirSync(cacheDir, { recursive: true });
    await git(src, ['init', '--bare', '--quiet']);
  };

  return {
    async fetch(src) {
      await ensureRepo(src);
      const ref = src.ref.kind === 'tag' ? `refs/tags/${src.ref.name}` : `refs/heads/${src.ref.name}`;
      await git(src, ['fetch', '--quiet', '--no-tags', '--force', src.url, `+${ref}:refs/svc/head`], { env: credentials(src) });
      return (await git(src, ['rev-parse', '--verify', 'refs/svc/head^{commit}'])).trim();
    },
    async resolve(src, rev) {
      if (!/^[0-9a-f]{4,64}$/i.test(rev)) throw new SvcError('SVC_INVALID', `to: '${rev}' is not a commit id (hex)`);
      try {
        return (await git(src, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`])).trim();
      } catch {
        throw new SvcError('SVC_NOT_FOUND', `commit ${rev} is not in git:${src.name} (fetched history of ${src.ref.kind} ${src.ref.name})`);
      }
    },
    async info(src, commit): Promise<CommitInfo> {
      const out = await git(src, ['show', '-s', '--format=%H%x00%ct%x00%s', commit]);
      const [id = commit, time = '0', subject = ''] = out.replace(/\n$/, '').split('\0');
      return { id, time: Number(time) * 1000, subject };
    },
    async verify(src, commit) {
      try {
        await git(src, ['-c', `gpg.ssh.allowedSignersFile=${src.allowed_signers}`, 'verify-commit', commit]);
        return null;
      } catch (err) {
        return (err as Error).message.replace(/^git verify-commit: /, '');
      }
    },
    async snapshot(src, commit) {
      const prefix = src.path === '' ? [] : ['--', `${src.path}/`];
      const listing = await git(src, ['ls-tree', '-r', '-z', '--name-only', commit, ...prefix]);
      const files = new Map<string, string>();
      for (const path of listing.split('\0')) {
        if (path === '' || !isStackFileName(path.split('/').pop() ?? '')) continue;
        files.set(path, await git(src, ['cat-file', 'blob', `${commit}:${path}`]));
      }
      return files;
    },
  };
}

/** The token or SSH key of a source, by reference: read at each fetch, passed through the environment. */
function credentials(src: GitSourceConfig): Record<string, string> {
  const env: Record<string, string> = {};
  if (src.ssh_key !== '') env.GIT_SSH_COMMAND = `ssh -i '${src.ssh_key.replace(/'/g, `'\\''`)}' -o IdentitiesOnly=yes -o BatchMode=yes`;
  if (src.token_file !== '') {
    let token: string;
    try {
      token = readFileSync(src.token_file, 'utf8').trim();
    } catch (err) {
      throw new SvcError('SVC_INVALID', `token_file ${src.token_file}: cannot read: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
    }
    // GIT_CONFIG_* keeps the token out of the command line (ps) and out of any file.
    Object.assign(env, { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'http.extraHeader', GIT_CONFIG_VALUE_0: `Authorization: Bearer ${token}` });
  }
  return env;
}
