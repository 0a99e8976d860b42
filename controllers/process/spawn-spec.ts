import { isAbsolute, resolve } from 'node:path';
import { parse as parseDotenv } from 'dotenv';
import type { EffectiveConfig } from '../../state/program.js';
import { logPaths } from '../../log-files/paths.js';
import type { OsPort, SpawnSpec } from '../os/port.js';
import type { ReadAs } from '../os/read-env-file.js';
import { splitCommand } from '../../state/command-line.js';
import { PAGE_SIZE } from '../os/proc-fs.js';

export interface SpawnContext {
  /** $SVC_ROOT: relative cwd and env_file resolve under it. */
  root: string;
  logDir: string;
  /** The daemon's environment, inherited by programs (program env wins); `baseEnvOf(process.env)`. */
  baseEnv: Readonly<Record<string, string>>;
}

/** The daemon's environment as programs inherit it: a plain copy (reading process.env calls getenv() key by key), unset names left out. */
export function baseEnvOf(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  return out;
}

/** A program that cannot be started as configured; the message names the field. */
export class SpawnPrepError extends Error {
  override name = 'SpawnPrepError';
}

/** Turns a program configuration into the exact process to start. */
export function buildSpawnSpec(id: string, config: EffectiveConfig, ctx: SpawnContext, os: OsPort): SpawnSpec {
  const [file, ...args] = config.args ? [config.command, ...config.args] : splitOrFail(config.command);
  if (!file) throw new SpawnPrepError('command: is empty');
  // One copy of a plain object per spawn: a start of 500 walked svcd's environment entry by entry 500 times.
  const env: Record<string, string> = { ...ctx.baseEnv };
  const identity = resolveIdentity(config, os);
  // Read with the program's permissions when svcd switches to another user (docs/api.md, env_file).
  const as = identity.uid !== undefined ? { uid: identity.uid, gid: identity.gid ?? identity.uid, groups: identity.groups } : undefined;
  const fromFile = config.env_file ? readEnvFile(config.env_file, ctx.root, os, as) : {};
  Object.assign(env, fromFile);
  Object.assign(env, config.env ?? {});
  env.SVC_PROGRAM_ID = id;
  env.SVC_ROOT = ctx.root; // whose program this is: several svcd (roots) may share a host
  env.SVC_PROGRAM_NAME = config.name;
  if (identity.user) Object.assign(env, { HOME: identity.user.home, USER: identity.user.name, LOGNAME: identity.user.name });
  checkExecSizes(file, args, env, config, fromFile);
  const logs = logPaths(id, config, ctx.logDir);
  return {
    file,
    args,
    cwd: config.cwd ? (isAbsolute(config.cwd) ? config.cwd : resolve(ctx.root, config.cwd)) : ctx.root,
    env,
    uid: identity.uid,
    gid: identity.gid,
    groups: identity.groups,
    stdoutPath: logs.stdout,
    stderrPath: logs.stderr,
    tag: id,
  };
}

/** MAX_ARG_STRLEN: the most exec takes for one argument or one NAME=value, its NUL included. */
const MAX_ARG_STRLEN = 32 * PAGE_SIZE;

/**
 * One argument or variable longer than exec takes (E2BIG, "Argument list too long", at every
 * start) is named here instead, with where it comes from.
 */
function checkExecSizes(file: string, args: string[], env: Record<string, string>, config: EffectiveConfig, fromFile: Record<string, string>): void {
  // Every spawn runs this: a string of n UTF-16 units is at most 3n bytes, so only one that long is measured.
  const mayBeTooLong = (units: number) => 3 * units + 1 > MAX_ARG_STRLEN;
  const tooLong = (text: string) => mayBeTooLong(text.length) && Buffer.byteLength(text) + 1 > MAX_ARG_STRLEN;
  const limit = `more than the ${MAX_ARG_STRLEN - 1} bytes exec takes for one`;
  if (tooLong(file)) throw new SpawnPrepError(`command: ${Buffer.byteLength(file)} bytes, ${limit} argument`);
  const arg = args.findIndex(tooLong);
  if (arg >= 0) throw new SpawnPrepError(`${config.args ? `args[${arg}]` : 'command'}: an argument of ${Buffer.byteLength(args[arg] ?? '')} bytes, ${limit}`);
  for (const name in env) {
    const value = env[name] ?? '';
    if (!mayBeTooLong(name.length + 1 + value.length) || !tooLong(`${name}=${value}`)) continue;
    const shown = name.slice(0, 64).replace(/[^\x20-\x7e]/g, '?');
    const from = config.env?.[name] === value ? `env.${shown}` : fromFile[name] === value ? `env_file: variable '${shown}'` : `svcd's environment: variable '${shown}'`;
    throw new SpawnPrepError(`${from}: ${Buffer.byteLength(`${name}=${value}`)} bytes with its name, ${limit} variable`);
  }
}

function splitOrFail(command: string): string[] {
  try {
    return splitCommand(command);
  } catch (err) {
    throw new SpawnPrepError(`command: ${(err as Error).message}`);
  }
}

function readEnvFile(path: string, root: string, os: OsPort, as: ReadAs | undefined): Record<string, string> {
  const full = isAbsolute(path) ? path : resolve(root, path);
  let text: string;
  try {
    text = os.readTextFile(full, as);
  } catch (err) {
    // The code (ENOENT) or the port's short reason; never a message that could quote contents.
    const reason = (err as NodeJS.ErrnoException).code ?? (err as Error).message.slice(0, 80);
    throw new SpawnPrepError(`env_file: cannot read ${full}: ${reason}`);
  }
  const parsed = parseDotenv(text);
  const bad = Object.keys(parsed).find((key) => key.includes('=') || key.includes('\0') || parsed[key]?.includes('\0'));
  // Named by key only: the value may be a secret, and the error reaches the API.
  if (bad !== undefined) throw new SpawnPrepError(`env_file: ${full}: variable '${bad.slice(0, 64).replace(/[^\x20-\x7e]/g, '?')}' contains a NUL byte or '=' in its name`);
  return parsed;
}

function resolveIdentity(config: EffectiveConfig, os: OsPort) {
  if (config.user === undefined && config.group === undefined) return {};
  const user = config.user === undefined ? null : os.lookupUser(config.user);
  if (config.user !== undefined && !user) throw new SpawnPrepError(`user: no such user '${config.user}'`);
  const gid = config.group === undefined ? user?.gid : os.lookupGroup(config.group);
  if (config.group !== undefined && (gid === null || gid === undefined)) throw new SpawnPrepError(`group: no such group '${config.group}'`);
  const uid = user?.uid;
  if (os.uid() !== 0) {
    // Without root only "switching" to oneself works; anything else is a clear error, not EPERM.
    if (config.group !== undefined) throw new SpawnPrepError(`group: svcd is not running as root and cannot switch to group '${config.group}'`);
    if (uid !== os.uid()) throw new SpawnPrepError(`user: svcd is not running as root and cannot switch to user '${config.user}'`);
    return { user };
  }
  // The user's supplementary groups with the gid it runs as, as initgroups(user, gid) sets them
  // (what systemd's User= and supervisord's user= give); a group alone gets none.
  const groups = user && gid !== undefined && gid !== null ? [...new Set([gid, ...user.groups])] : undefined;
  return { uid, gid: gid ?? undefined, groups, user };
}
