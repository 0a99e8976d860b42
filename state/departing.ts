import type { ProgramRecord } from './program.js';

/** A removed program whose process is still stopping: its last stored record and that process. */
export interface Departing {
  record: ProgramRecord;
  pid: number;
}

/**
 * Programs removed from the store whose process has not ended yet (a graceful stop takes up to
 * stopsecs). They stay visible, marked removed, until it has: a removal whose request was
 * interrupted (Ctrl-C on `svc rm`) or that came from a stack must not leave a process nobody can
 * see or force. Fed by the process controller; read by the API and the watch feed.
 */
export class DepartingPrograms {
  private readonly entries = new Map<string, Departing>();
  private readonly listeners = new Set<(id: string) => void>();

  set(id: string, entry: Departing): void {
    this.entries.set(id, entry);
    this.changed(id);
  }

  delete(id: string): void {
    if (this.entries.delete(id)) this.changed(id);
  }

  get(id: string): Departing | undefined {
    return this.entries.get(id);
  }

  list(): Departing[] {
    return [...this.entries.values()];
  }

  /** Called with the id of every entry added, changed or gone; returns the unsubscribe. */
  subscribe(listener: (id: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(id: string): void {
    for (const listener of this.listeners) listener(id);
  }
}
