import type Koa from 'koa';

/** A value Koa would answer as JSON: a plain object or an array. */
function isPlainJson(value: unknown): value is object {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return true;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * JSON bodies are serialized before Koa's body setter sees them. Given an object, that setter
 * tests it against the `ReadableStream`, `Blob` and `Response` globals, and the first touch of
 * `Response` loads Node's built-in undici and web streams: ~4.5 MiB of RSS and their compile time
 * on svcd's first answer, for classes svcd never uses. A string takes Koa's first branch. The
 * answer is what Koa would have sent: the same JSON, `application/json; charset=utf-8` unless the
 * route chose a type, and a Content-Length. Reading `ctx.body` afterwards gives the string.
 */
export function serializeJsonBodies(app: Koa): void {
  const koaResponse: object = Object.getPrototypeOf(app.response) as object;
  type Accessor = { get?: (this: Koa.Response) => unknown; set?: (this: Koa.Response, value: unknown) => void };
  const { get, set } = (Object.getOwnPropertyDescriptor(koaResponse, 'body') ?? {}) as Accessor;
  if (!get || !set) throw new TypeError("koa's response has no body accessor");
  Object.defineProperty(app.response, 'body', {
    configurable: true,
    get,
    set(this: Koa.Response, value: unknown) {
      if (!isPlainJson(value)) return set.call(this, value);
      const typed = this.res.hasHeader('Content-Type');
      set.call(this, JSON.stringify(value));
      if (!typed) this.type = 'json';
    },
  });
}
