/** A plugin library that cannot be used; the message names the file and why. */
export class PluginError extends Error {
  override name = 'PluginError';
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(`${file}: ${message}`);
  }
}
