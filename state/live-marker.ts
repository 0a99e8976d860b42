import { KeyedWriter, type MetaLevel } from './keyed-writer.js';

interface Live {
  boot_id: string;
  pid: number;
  started_at: number;
}

/**
 * `daemon:live` in store.meta: written as svcd starts, deleted by its graceful shutdown. Found at
 * the next start with this machine's boot id, it says that the previous svcd crashed (killed, out
 * of memory). That start is then not a boot for the programs: every stored run intent holds, as
 * their processes, Backoff, Fatal and Exited do (a program an operator stopped stays stopped, one
 * started by hand goes on running). After a graceful shutdown or a reboot the boot rules apply.
 */
export class LiveMarker {
  private readonly writer: KeyedWriter<Live>;
  /** What `arm` found: the previous svcd of this machine boot crashed. */
  private crashed = false;

  constructor(
    meta: MetaLevel,
    /** This machine boot's id ('' when unknown: every start is then a boot). */
    private readonly bootId: string,
    onError?: (err: unknown) => void,
  ) {
    this.writer = new KeyedWriter(meta, 'daemon', onError);
  }

  /** Whether the previous svcd of this machine boot crashed; then marks this one live (durably). */
  async arm(pid: number, now: number): Promise<boolean> {
    const found = (await this.writer.loadAll(parseLive)).get('live');
    this.crashed = this.bootId !== '' && found?.boot_id === this.bootId;
    this.writer.set('live', { boot_id: this.bootId, pid, started_at: now });
    await this.writer.flush();
    return this.crashed;
  }

  /**
   * A start that failed ran nothing: the next start is what this one would have been, a boot or
   * a start after a crash, so the mark stays only if this one found it.
   */
  async abandon(): Promise<void> {
    if (!this.crashed) await this.disarm();
  }

  /** A graceful shutdown: the next start is a boot. */
  async disarm(): Promise<void> {
    this.writer.set('live', null);
    await this.writer.flush();
  }
}

function parseLive(value: unknown): Live | null {
  const v = value as Partial<Live> | null;
  return typeof v?.boot_id === 'string' && typeof v.pid === 'number' && typeof v.started_at === 'number' ? { boot_id: v.boot_id, pid: v.pid, started_at: v.started_at } : null;
}
