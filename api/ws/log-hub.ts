import { FileFollower, type FollowOptions } from '../../log-files/follow.js';

import type { LogStreamMessage as LogLine } from '../wire.js';

/** One message on the log WebSocket (defined with the other wire types). */
export type { LogLine };

/** The part of a WebSocket the hub uses (ws's WebSocket fits; tests pass fakes). */
export interface LogClient {
  readonly bufferedAmount: number;
  send(data: string): void;
  close(code: number, reason: string): void;
}

/** Close codes sent by the log stream. */
export const CLOSE = {
  unauthorized: 4401,
  forbidden: 4403,
  notFound: 4404,
  tooSlow: 4429,
  goingAway: 1001,
} as const;

type Paths = { stdout: string; stderr: string };

/**
 * The files to follow, per source. When both streams go to one file (supervisord's
 * redirect_stderr, as imported) it is followed once and its lines are sent as stdout: following
 * it twice sent every line twice, once under each source.
 */
function wanted(paths: Paths): [LogLine['source'], string][] {
  return paths.stderr === paths.stdout ? [['stdout', paths.stdout]] : [['stdout', paths.stdout], ['stderr', paths.stderr]];
}

/** A file followed for one source. */
interface Followed {
  source: LogLine['source'];
  path: string;
  follower: FileFollower;
}

interface Stream {
  id: string;
  clients: Set<LogClient>;
  followers: Followed[];
  /** Resolves once the followers know where the files end. */
  started: Promise<void>;
}

/**
 * Fans new log lines out to WebSocket clients: one file follower per source of a program, shared by
 * all its clients, started by the first client and stopped with the last. A client whose send
 * buffer is over `slowBytes` is dropped (close 4429): it never holds back the program, the
 * follower or the other clients.
 */
export class LogHub {
  private readonly streams = new Map<string, Stream>();

  constructor(
    private readonly deps: {
      /** The stdout and stderr files of a program. */
      paths: (id: string) => Paths;
      slowBytes?: number;
      now?: () => number;
      follow?: FollowOptions;
    },
  ) {}

  /** Adds a client; the returned function removes it (call it when the socket closes). */
  async join(id: string, client: LogClient): Promise<() => void> {
    let stream = this.streams.get(id);
    if (!stream) {
      const created: Stream = { id, clients: new Set(), followers: [], started: Promise.resolve() };
      stream = created;
      this.streams.set(id, created);
      created.followers = wanted(this.deps.paths(id)).map(([source, path]) => this.follow(created, source, path));
      created.started = Promise.all(created.followers.map((f) => f.follower.start())).then(() => undefined);
    }
    // A member before the followers start: another client leaving meanwhile must not stop them.
    stream.clients.add(client);
    await stream.started;
    return () => this.leave(id, client);
  }

  /**
   * A new process of the program started: follow the files it writes to, which an update of
   * `stdout_logfile`/`stderr_logfile` may have changed (the old files were followed until now).
   * A changed file is followed from its end as it is now.
   */
  async refresh(id: string): Promise<void> {
    const stream = this.streams.get(id);
    if (!stream) return;
    const now = wanted(this.deps.paths(id));
    const same = (f: Followed, [source, path]: [LogLine['source'], string]) => f.source === source && f.path === path;
    const kept = stream.followers.filter((f) => now.some((w) => same(f, w)));
    for (const f of stream.followers) if (!kept.includes(f)) f.follower.stop();
    const added = now.filter((w) => !kept.some((f) => same(f, w))).map(([source, path]) => this.follow(stream, source, path));
    stream.followers = [...kept, ...added];
    await Promise.all(added.map((f) => f.follower.start()));
  }

  /** Number of programs with a running follower pair (for tests and metrics). */
  get followedPrograms(): number {
    return this.streams.size;
  }

  /** Closes every client of a program (e.g. it was removed). */
  closeProgram(id: string, code: number, reason: string): void {
    const stream = this.streams.get(id);
    if (!stream) return;
    for (const client of [...stream.clients]) {
      this.leave(id, client);
      client.close(code, reason);
    }
  }

  ids(): string[] {
    return [...this.streams.keys()];
  }

  closeAll(code: number, reason: string): void {
    for (const id of this.ids()) this.closeProgram(id, code, reason);
  }

  private follow(stream: Stream, source: LogLine['source'], path: string): Followed {
    return { source, path, follower: new FileFollower(path, (lines, continues) => this.broadcast(stream, source, lines, continues), this.deps.follow) };
  }

  private leave(id: string, client: LogClient): void {
    const stream = this.streams.get(id);
    if (!stream?.clients.delete(client) || stream.clients.size > 0) return;
    for (const f of stream.followers) f.follower.stop();
    this.streams.delete(id);
  }

  private broadcast(stream: Stream, source: LogLine['source'], lines: string[], continues: boolean): void {
    const ts = (this.deps.now ?? Date.now)() / 1000;
    const messages = lines.map((content) => JSON.stringify((continues ? { source, content, ts, continues } : { source, content, ts }) satisfies LogLine));
    const limit = this.deps.slowBytes ?? 1 << 20;
    for (const client of [...stream.clients]) {
      if (client.bufferedAmount > limit) {
        this.leave(stream.id, client);
        client.close(CLOSE.tooSlow, 'client too slow: dropped; reconnect to resume');
        continue;
      }
      for (const m of messages) client.send(m);
    }
  }
}
