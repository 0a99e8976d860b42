import type { Context } from 'koa';
import { SvcError, invalid } from '../state/errors.js';
import { parseJsonDocument, type Locator } from '../state/schema/json-body.js';

/** Reads the raw request body as text, refusing more than `maxBytes` with a 413. */
export async function readText(ctx: Context, maxBytes: number): Promise<string> {
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw tooLarge(maxBytes);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function tooLarge(maxBytes: number): SvcError {
  return new SvcError('SVC_TOO_LARGE', `request body is larger than ${maxBytes} bytes (server.max_body_bytes)`);
}

/** Reads and parses a JSON body; syntax errors carry `JSON line N column M`. */
export async function readJson(ctx: Context, maxBytes: number): Promise<{ value: unknown; locate: Locator; text: string }> {
  const type = ctx.get('content-type');
  // curl sends form-urlencoded by default; anything that is clearly another format is refused.
  if (/^(multipart\/|application\/(toml|yaml|x-yaml|xml|octet-stream)|text\/(toml|yaml|xml|html))/i.test(type)) {
    throw invalid(`Content-Type: expected application/json, got '${type}'`);
  }
  const text = await readText(ctx, maxBytes);
  if (text.trim() === '') throw invalid('body: a JSON document is required');
  return { ...parseJsonDocument(text), text };
}
