/** Stable error codes; the HTTP status for each is decided in one place (api/errors.ts). */
export type SvcErrorCode =
  | 'SVC_INVALID' // 400: a field, parameter or body is wrong
  | 'SVC_CONFLICT' // 409: a duplicate name
  | 'SVC_NOT_FOUND' // 404: no such route or program
  | 'SVC_METHOD_NOT_ALLOWED' // 405: a path that exists, with another method
  | 'SVC_TOO_LARGE' // 413: request body over the cap
  | 'SVC_UNSUPPORTED_MEDIA' // 415: a Content-Type the route does not read
  | 'SVC_UNAUTHORIZED' // 401: missing or wrong Bearer credential
  | 'SVC_FORBIDDEN' // 403: a valid credential whose role lacks the permission
  | 'SVC_UNAVAILABLE' // 503: the daemon is shutting down, or a store cannot write for a reason other than space
  | 'SVC_NO_SPACE' // 507: the data disk is full; the change was not recorded
  | 'SVC_INTERNAL'; // 500

/** An expected failure with a stable code and a message that follows the spec's wording rules. */
export class SvcError extends Error {
  override name = 'SvcError';
  constructor(
    readonly code: SvcErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export const invalid = (message: string) => new SvcError('SVC_INVALID', message);
export const notFound = (message: string) => new SvcError('SVC_NOT_FOUND', message);
export const conflict = (message: string) => new SvcError('SVC_CONFLICT', message);
export const unsupportedMedia = (message: string) => new SvcError('SVC_UNSUPPORTED_MEDIA', message);

/** Prefixes a message with `program '<name>': ` when the name is known (spec, Errors rule 2). */
export function forProgram(name: unknown, message: string): string {
  return typeof name === 'string' && name.length > 0 ? `program '${name}': ${message}` : message;
}
