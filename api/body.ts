import type { Context } from 'koa';
import { isUtf8 } from 'node:buffer';
import { SvcError, invalid, unsupportedMedia } from '../state/errors.js';
import { parseJsonDocument, type Locator } from '../state/schema/json-body.js';

/** Reads the raw request body as text, refusing more than `maxBytes` with a 413 and a compressed body with a 415. */
export async function readText(ctx: Context, maxBytes: number): Promise<string> {
  // A compressed body would be parsed as text and fail with a misleading syntax error.
  const encoding = ctx.get('content-encoding').trim().toLowerCase();
  if (encoding !== '' && encoding !== 'identity') throw unsupportedMedia(`Content-Encoding: '${encoding}' is not accepted; send the body uncompressed`);
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) throw tooLarge(maxBytes);
      chunks.push(chunk);
    }
  } catch (err) {
    // A client that went away (or was cut by request_timeout_secs) is not a daemon error to log.
    if ((err as NodeJS.ErrnoException).code === 'ECONNRESET') throw invalid('body: the connection closed before the whole body arrived');
    throw err;
  }
  const body = Buffer.concat(chunks);
  // Decoding would turn each bad byte into U+FFFD and store that in place of what was meant
  // (a Latin-1 `é` in a command or an env value) without a word.
  if (!isUtf8(body)) throw invalid('body: is not valid UTF-8 (request bodies are read as UTF-8: JSON, TOML and YAML alike)');
  return body.toString('utf8');
}

function tooLarge(maxBytes: number): SvcError {
  return new SvcError('SVC_TOO_LARGE', `request body is larger than ${maxBytes} bytes (server.max_body_bytes)`);
}

/** Reads and parses a JSON body; syntax errors carry `JSON line N column M`. */
export async function readJson(ctx: Context, maxBytes: number): Promise<{ value: unknown; locate: Locator; text: string }> {
  const type = ctx.get('content-type');
  if (!isJsonType(type)) throw unsupportedMedia(`Content-Type: expected application/json, got '${type}'`);
  const text = await readText(ctx, maxBytes);
  if (text.trim() === '') throw invalid('body: a JSON document is required');
  return { ...parseJsonDocument(text), text };
}

/**
 * JSON bodies: no Content-Type, application/json or any `+json` type, and curl's default
 * application/x-www-form-urlencoded (`curl -d '{...}'`); anything else (text/plain included) is a 415.
 */
export function isJsonType(contentType: string): boolean {
  const type = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  return type === '' || type === 'application/json' || type === 'application/x-www-form-urlencoded' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}
