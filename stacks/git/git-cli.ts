import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SvcError } from '../../state/errors.js';
import { isStackFileName } from '../file-names.js';
import type { CommitInfo, GitPort } from './port.js';
import { withoutUserInfo, type GitSourceConfig } from './source-config.js';

const TIMEOUT_MS = 120_000;
const MAX_OUTPUT = 64 * 1024 * 1024;
/** After SIGTERM (git removes its lock files), the process group gets SIGKILL this much later. */
const KILL_GRACE_MS = 5_000;

/**
 * The system `git` on svcd's own bare cache `<cacheDir>/<name>.git`, one per source: the user's
 * working copies are never read or written. The ref followed is fetched to `refs/svc/head`;
 * older commits stay reachable through it for `svc sync --to`, and a pinned one through
 * `refs/svc/pin` even after a force-push took it out of the branch.
 *
 * Each git runs in its own process group, so that a command past `timeoutMs` (a server that
 * never answers) or still running at `close()` ends with every process it started
 * (git-remote-https, ssh), not only git itself.
 */
export function gitCli(cacheDir: string, opts: { timeoutMs?: number; maxFileBytes?: number; maxOutputBytes?: number } = {}): Required<GitPort> {
  const timeoutMs = opts.timeoutMs ?? TIMEOUT_MS;
  const maxOutput = opts.maxOutputBytes ?? MAX_OUTPUT;
  const maxFileBytes = opts.maxFileBytes ?? 1024 * 1024;
  const repo = (src: GitSourceConfig) => join(cacheDir, `${src.name}.git`);
  const running = new Map<ChildProcess, (why: string) => void>();
  let closed = false;

  /** `maxOutput`: the most bytes this git may print, for a read whose size is known beforehand; else `opts.maxOutputBytes` (64 MiB). */
  type GitOptions = { env?: Record<string, string>; input?: string; maxOutput?: number };

  /** git's output as text. */
  const git = async (src: GitSourceConfig, args: string[], o: GitOptions = {}): Promise<string> => (await gitBytes(src, args, o)).toString('utf8');

  /** git's output as it came (object sizes count bytes). */
  const gitBytes = (src: GitSourceConfig, args: string[], o: GitOptions = {}): Promise<Buffer> =>
    new Promise((resolve, reject) => {
      const what = `git ${args.find((a, i) => !a.startsWith('-') && args[i - 1] !== '-c') ?? ''}`;
      if (closed) return reject(new SvcError('SVC_UNAVAILABLE', `${what}: svcd is stopping`));
      const env = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: '/bin/false', LC_ALL: 'C', ...o.env };
      const child = spawn('git', ['--git-dir', repo(src), ...args], { env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
      child.stdin.on('error', () => undefined); // git ended early: its exit says why
      child.stdin.end(o.input ?? '');
      const out: Buffer[] = [];
      let outBytes = 0;
      const limit = o.maxOutput ?? maxOutput;
      let err = '';
      let ended: string | null = null;
      let killTimer: NodeJS.Timeout | undefined;
      const signalGroup = (signal: NodeJS.Signals) => {
        try {
          if (child.pid !== undefined) process.kill(-child.pid, signal);
        } catch {
          // the group is gone already
        }
      };
      const end = (why: string) => {
        if (ended !== null) return;
        ended = why;
        signalGroup('SIGTERM');
        killTimer = setTimeout(() => signalGroup('SIGKILL'), KILL_GRACE_MS);
        killTimer.unref();
      };
      running.set(child, end);
      const timer = setTimeout(() => end(`no answer within ${Math.round(timeoutMs / 1000)} s (timed out; is the remote reachable?)`), timeoutMs);
      child.stdout.on('data', (b: Buffer) => {
        outBytes += b.length;
        if (outBytes > limit) end(`output larger than ${limit} bytes`);
        else out.push(b);
      });
      child.stderr.on('data', (b: Buffer) => {
        if (err.length < 64 * 1024) err += b.toString('utf8');
      });
      child.on('error', (e: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        running.delete(child);
        reject(new SvcError('SVC_INVALID', e.code === 'ENOENT' ? 'git is not installed (scripts/install-system-deps.sh)' : `${what}: ${e.message}`));
      });
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        running.delete(child);
        if (ended !== null) {
          // Whatever git left behind in its group (a remote helper, ssh) goes too.
          signalGroup('SIGKILL');
          clearTimeout(killTimer);
          return reject(new SvcError(closed ? 'SVC_UNAVAILABLE' : 'SVC_INVALID', `${what}: ${ended}`));
        }
        if (code === 0) return resolve(Buffer.concat(out));
        // git quotes the URL in its messages: a token in its user part must not reach status, events or logs.
        const detail = withoutUserInfo(errorDetail(err), src.url);
        reject(new SvcError('SVC_INVALID', `${what}: ${detail || (signal ? `killed by ${signal}` : `exit code ${String(code)}`)}`));
      });
    });

  const ensureRepo = async (src: GitSourceConfig) => {
    mkdirSync(cacheDir, { recursive: true });
    removeStaleLocks(repo(src));
    await git(src, ['init', '--bare', '--quiet']);
  };

  return {
    close() {
      closed = true;
      for (const end of running.values()) end('svcd is stopping');
    },
    async fetch(src) {
      await ensureRepo(src);
      const ref = src.ref.kind === 'tag' ? `refs/tags/${src.ref.name}` : `refs/heads/${src.ref.name}`;
      // An automatic gc runs inside the fetch (under its timeout), not detached: no git of this
      // cache outlives its command, so a lock file found before the next one is stale.
      const inline = ['-c', 'gc.autoDetach=false', '-c', 'maintenance.autoDetach=false'];
      await git(src, [...inline, 'fetch', '--quiet', '--no-tags', '--force', src.url, `+${ref}:refs/svc/head`], { env: credentials(src) });
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
    async keep(src, commit) {
      // No ensureRepo: a pin is only ever made of a commit already in the cache.
      await git(src, commit === null ? ['update-ref', '-d', 'refs/svc/pin'] : ['update-ref', 'refs/svc/pin', commit]);
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
      const paths = listing.split('\0').filter((path) => path !== '' && isStackFileName(path.split('/').pop() ?? ''));
      const files = new Map<string, string>();
      if (paths.length === 0) return files;
      const bad = paths.find((path) => path.includes('\n'));
      if (bad !== undefined) throw new SvcError('SVC_INVALID', `${JSON.stringify(bad)}: a file name with a line break`);
      // One look-up for all: each file's blob and size, symbolic links followed inside the commit.
      const check = await git(src, ['cat-file', '--batch-check', '--follow-symlinks'], { input: paths.map((path) => `${commit}:${path}\n`).join('') });
      const blobs = stackBlobs(paths, check.split('\n'), maxFileBytes);
      // And one read for all their contents: a git per file made a sync of 200 stack files take seconds.
      const sizes = new Map([...blobs.values()].map(({ blob, size }) => [blob, size]));
      const ids = [...sizes.keys()];
      // Its size is known: each answer is a header line, the contents and a line feed. Bounded by
      // that, not by one git's output limit, which stack files of 64 MiB in all would pass
      // (each file is bounded by maxFileBytes, as when each had a git of its own).
      const expected = [...sizes].reduce((sum, [id, size]) => sum + `${id} blob ${size}\n`.length + size + 1, 0);
      const contents = catFileBatch(await gitBytes(src, ['cat-file', '--batch'], { input: ids.map((id) => `${id}\n`).join(''), maxOutput: Math.max(maxOutput, expected) }), ids);
      for (const [path, { blob }] of blobs) files.set(path, contents.get(blob)!);
      return files;
    },
  };
}

/**
 * The blob of each stack file and its size, from `git cat-file --batch-check --follow-symlinks`
 * (one answer per path, in order). A file is refused, naming it, when it is larger than `maxBytes` (the
 * watched directory's limit), a symbolic link that leaves the repository (`/etc/passwd`) or
 * leads nowhere, or not a file (a submodule).
 */
function stackBlobs(paths: string[], lines: string[], maxBytes: number): Map<string, { blob: string; size: number }> {
  const out = new Map<string, { blob: string; size: number }>();
  let at = 0;
  for (const path of paths) {
    const line = lines[at++] ?? '';
    const refuse = (problem: string): never => {
      throw new SvcError('SVC_INVALID', `${path}: ${problem}`);
    };
    const [first = '', second = '', third = ''] = line.split(' ');
    if (first === 'symlink') refuse(`a symbolic link to ${lines[at] ?? '?'}, outside the repository (commit the file itself)`);
    if (first === 'dangling' || first === 'notdir') refuse('a symbolic link to a file that is not in the commit');
    if (first === 'loop') refuse('a loop of symbolic links');
    if (second === 'missing' || second === 'commit') refuse('not a file of the commit (a submodule?)');
    if (second !== 'blob') refuse(`not a file (${second || 'unknown'})`);
    const size = Number(third);
    if (size > maxBytes) refuse(`larger than ${maxBytes} bytes (server.max_body_bytes)`);
    out.set(path, { blob: first, size });
  }
  return out;
}

/**
 * The objects of `git cat-file --batch`, asked for by id, as text: each answer is
 * `<id> <type> <size>`, a line feed, size bytes and a line feed (or `<id> missing`, which a blob
 * just listed by --batch-check cannot be unless the cache changed underneath).
 */
function catFileBatch(out: Buffer, ids: string[]): Map<string, string> {
  const contents = new Map<string, string>();
  let at = 0;
  for (const id of ids) {
    const eol = out.indexOf(10, at);
    const header = out.toString('utf8', at, eol < 0 ? out.length : eol);
    const [, type = '', size = ''] = header.split(' ');
    if (eol < 0 || type !== 'blob' || !/^\d+$/.test(size) || eol + 1 + Number(size) > out.length) {
      throw new SvcError('SVC_INVALID', `git cat-file: unexpected answer for ${id}: ${JSON.stringify(header.slice(0, 120))}`);
    }
    contents.set(id, out.toString('utf8', eol + 1, eol + 1 + Number(size)));
    at = eol + 1 + Number(size) + 1;
  }
  return contents;
}

/**
 * Removes the lock files a git killed mid-write left in the cache (svcd killed -9 or the machine
 * losing power during a fetch; a git past its timeout that ignored SIGTERM): git refuses every
 * later fetch while `refs/svc/head.lock` exists. Only svcd uses the cache, one command of a
 * source at a time (syncs of a source are serialized; the others only read), so any lock found
 * before a fetch is stale.
 */
function removeStaleLocks(dir: string): void {
  const sweep = (folder: string, deep: boolean) => {
    let entries;
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return; // no cache yet
    }
    for (const e of entries) {
      const path = join(folder, e.name);
      if (e.isFile() && e.name.endsWith('.lock')) rmSync(path, { force: true });
      else if (deep && e.isDirectory()) sweep(path, true);
    }
  };
  sweep(dir, false);
  sweep(join(dir, 'refs'), true);
}

/** The last lines of git's stderr. */
function errorDetail(stderr: string): string {
  return stderr.trim().split('\n').filter((l) => l !== '').slice(-3).join('; ');
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
