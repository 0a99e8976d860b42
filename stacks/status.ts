/** The last result of one file in the watched stacks directory (GET /api/v1/stack/status). */
export interface StackFileStatus {
  /** File name relative to the watched directory. */
  file: string;
  /** `ok`: applied; `error`: refused, the last good state keeps running; `removed`: deleted and pruned. */
  state: 'ok' | 'error' | 'removed';
  /** The error message (`path:line:col: ...`) when state is `error`. */
  message: string | null;
  /** Apply lines of the last successful apply. */
  lines: string[];
  /** Unix milliseconds of this result. */
  at: number;
  /**
   * Services this file lists that another watched file lists too, and which file owns each (the
   * one applied last): `web (also in b.toml, which owns it)`. Absent when there are none.
   */
  warning?: string;
}

export interface StackDirStatus {
  dir: string;
  watching: boolean;
  files: StackFileStatus[];
}
