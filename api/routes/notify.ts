import Router from '@koa/router';
import type { Context } from 'koa';
import { parse, TomlError } from 'smol-toml';
import { jsonLocate, tomlLocate } from '../../plugins/notify/config/load.js';
import { NotifyConfigError, validateNotifyConfig } from '../../plugins/notify/config/validate.js';
import { keepRedacted, redactChannel, stillRedacted } from '../../plugins/notify/redact.js';
import type { NotifyService } from '../../plugins/notify/service.js';
import { invalid, notFound } from '../../state/errors.js';
import { readJson, readText } from '../body.js';
import { seesSecrets } from '../redact.js';

/** GET's body: the configuration in force (secrets redacted unless admin), its load state, and per-channel figures. */
export function notifyView(service: NotifyService, secrets: boolean) {
  const { config, loaded_at, error } = service.configState();
  const engine = service.engine.counters();
  return {
    file: service.file,
    host: service.host,
    loaded_at,
    error,
    suppression: config.suppression,
    delivery: config.delivery,
    queue: { depth: service.deliverer.queued(), in_flight: service.deliverer.busy(), capacity: config.delivery.queue_size },
    channels: config.channels.map((c) => ({ ...(secrets ? c : redactChannel(c)), status: { ...engine.get(c.name), ...service.deliverer.stats(c.name) } })),
  };
}

/**
 * The notify plugin's routes (registered only when notify.so is loaded; otherwise 404):
 * view the channels, replace them (JSON or TOML body; written to conf/notify.toml), test one.
 */
export function notifyRouter(service: NotifyService, maxBodyBytes: number): Router {
  const router = new Router();
  router.get('/system/notify', (ctx) => {
    ctx.body = notifyView(service, seesSecrets(ctx));
  });
  router.put('/system/notify', async (ctx) => {
    const config = await readConfig(ctx, maxBodyBytes);
    const channels = keepRedacted(config.channels, service.channels());
    const placeholder = channels.find(stillRedacted);
    if (placeholder) throw invalid(`channels: channel '${placeholder.name}' has a redacted url or header value and nothing stored to keep it from (a header value is kept only for the same channel posting to its stored url)`);
    await service.replace({ ...config, channels });
    ctx.body = notifyView(service, seesSecrets(ctx));
  });
  router.post('/system/notify/test', async (ctx) => {
    const { value } = await readJson(ctx, maxBodyBytes);
    const name = (value as { channel?: unknown } | null)?.channel;
    if (typeof name !== 'string' || name === '') throw invalid('channel: required: the name of a channel in conf/notify.toml');
    const result = await service.test(name);
    if (!result) throw notFound(`channel: no channel named '${name}' (channels: ${service.channels().map((c) => c.name).join(', ') || 'none'})`);
    ctx.body = { channel: name, ...result };
  });
  return router;
}

async function readConfig(ctx: Context, maxBodyBytes: number) {
  const type = ctx.get('content-type');
  try {
    if (/^(application|text)\/toml/i.test(type)) {
      const text = await readText(ctx, maxBodyBytes);
      let raw: unknown;
      try {
        raw = parse(text);
      } catch (err) {
        if (err instanceof TomlError) throw invalid(`notify.toml:${err.line}:${err.column}: ${err.message.split('\n')[0]}`);
        throw err;
      }
      return validateNotifyConfig(raw, tomlLocate('notify.toml', text));
    }
    const { value } = await readJson(ctx, maxBodyBytes);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid('body: expected {"channels": [...], "suppression": {...}, "delivery": {...}}');
    const { channels, ...rest } = value as Record<string, unknown>;
    return validateNotifyConfig({ ...rest, ...(channels === undefined ? {} : { channel: channels }) }, jsonLocate, 'channels');
  } catch (err) {
    if (err instanceof NotifyConfigError) throw invalid(err.message);
    throw err;
  }
}
