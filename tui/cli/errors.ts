/** A failure the CLI prints as one line (no stack trace) before exiting with `exitCode`. */
export class CliError extends Error {
  override name = 'CliError';
  constructor(
    message: string,
    /** 1: an API or runtime error; 2: a usage error. */
    readonly exitCode = 1,
  ) {
    super(message);
  }
}
