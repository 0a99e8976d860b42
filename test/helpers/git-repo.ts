import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { GitSourceConfig } from '../../stacks/git/source-config.js';

/** A git remote for GitOps tests: a bare repository and a working clone that commits and pushes (file:// only). */
export interface TestRepo {
  /** The bare repository; `file://${bare}` is its URL. */
  bare: string;
  url: string;
  work: string;
  write(path: string, text: string): void;
  remove(path: string): void;
  /** Commits everything and pushes; returns the new commit id. `sign` signs with an SSH key. */
  commit(message: string, opts?: { sign?: string }): string;
  git(...args: string[]): string;
}

const ENV = {
  GIT_AUTHOR_NAME: 'svc test',
  GIT_AUTHOR_EMAIL: 'test@svc.invalid',
  GIT_COMMITTER_NAME: 'svc test',
  GIT_COMMITTER_EMAIL: 'test@svc.invalid',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
};

export function createRepo(root: string, name = 'repo'): TestRepo {
  const bare = join(root, `${name}.git`);
  const work = join(root, `${name}-work`);
  const run = (cwd: string, args: string[]) => execFileSync('git', args, { cwd, env: { ...process.env, ...ENV }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  mkdirSync(root, { recursive: true });
  run(root, ['init', '--quiet', '--bare', '--initial-branch=main', bare]);
  run(root, ['clone', '--quiet', `file://${bare}`, work]);
  run(work, ['checkout', '--quiet', '-B', 'main']);
  return {
    bare,
    url: `file://${bare}`,
    work,
    write(path, text) {
      mkdirSync(dirname(join(work, path)), { recursive: true });
      writeFileSync(join(work, path), text);
    },
    remove(path) {
      rmSync(join(work, path));
    },
    commit(message, opts = {}) {
      run(work, ['add', '-A']);
      const sign = opts.sign ? ['-c', 'gpg.format=ssh', '-c', `user.signingkey=${opts.sign}`, 'commit', '-S'] : ['-c', 'commit.gpgsign=false', 'commit'];
      run(work, [...sign, '--quiet', '--allow-empty', '-m', message]);
      run(work, ['push', '--quiet', 'origin', 'main']);
      return run(work, ['rev-parse', 'HEAD']).trim();
    },
    git: (...args) => run(work, args),
  };
}

/** An SSH signing key made for the test, and an allowed-signers file that trusts it. */
export function signingKey(root: string, name = 'signer'): { key: string; allowedSigners: string } {
  const key = join(root, name);
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', name, '-f', key], { stdio: 'ignore' });
  const pub = execFileSync('ssh-keygen', ['-y', '-f', key], { encoding: 'utf8' }).trim();
  const allowedSigners = join(root, `${name}.allowed`);
  writeFileSync(allowedSigners, `${ENV.GIT_COMMITTER_EMAIL} ${pub}\n`);
  return { key, allowedSigners };
}

/** A git source as svc.toml's defaults make it (branch main, the top folder, host alpha), with `over` on top. */
export function gitSourceConfig(over: Partial<GitSourceConfig> = {}): GitSourceConfig {
  return {
    name: 'fleet',
    url: 'file:///repo.git',
    ref: { kind: 'branch', name: 'main' },
    path: '',
    interval_secs: 60,
    token_file: '',
    ssh_key: '',
    allowed_signers: '',
    host: 'alpha',
    allow_drift: false,
    ...over,
  };
}
