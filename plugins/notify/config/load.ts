import { readFileSync } from 'node:fs';
import { parse, stringify, TomlError } from 'smol-toml';
import { validateNotifyConfig, NotifyConfigError, type Locate } from './validate.js';
import type { NotifyConfig } from './types.js';

/** Parses and checks the text of conf/notify.toml; errors read `file:line: key: problem`. */
export function parseNotifyToml(file: string, text: string): NotifyConfig {
  let raw: unknown;
  try {
    raw = parse(text);
  } catch (err) {
    if (err instanceof TomlError) throw new NotifyConfigError(`${file}:${err.line}:${err.column}: ${err.message.split('\n')[0] ?? err.message}`);
    throw err;
  }
  return validateNotifyConfig(raw, tomlLocate(file, text));
}

/** Reads conf/notify.toml; a missing file is an empty configuration (no channels, defaults). */
export function loadNotifyFile(file: string): NotifyConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return parseNotifyToml(file, '');
    throw new NotifyConfigError(`${file}: cannot read: ${(err as Error).message}`);
  }
  return parseNotifyToml(file, text);
}

/** Locations in a JSON body (PUT /api/v1/system/notify): the message itself names `channels[2] (name=x).url`. */
export const jsonLocate: Locate = (section) => (section === '' ? 'body' : '');

/**
 * The line of a key: inside `[section]`, or inside the index-th `[[channel]]` table; the
 * header's line when the key is not written there (a default that failed), 0 when unknown.
 */
export function tomlLocate(file: string, text: string): Locate {
  const lines = text.split('\n');
  return (section, index, key) => {
    let current = '';
    let channel = -1;
    let headerLine = 0;
    for (let i = 0; i < lines.length; i++) {
      const line = (lines[i] ?? '').trim();
      const array = /^\[\[\s*([^\]]+?)\s*\]\]/.exec(line);
      const header = array ?? /^\[\s*([^\]]+?)\s*\]/.exec(line);
      if (header) {
        current = header[1] ?? '';
        if (array && current === 'channel') channel++;
        const inTarget = current === section && (section !== 'channel' || channel === index);
        if (inTarget) headerLine = i + 1;
        continue;
      }
      const inTarget = current === section && (section !== 'channel' || index === null || channel === index);
      const m = /^["']?([A-Za-z0-9_-]+)["']?\s*=/.exec(line);
      if (inTarget && key && m && m[1] === key) return `${file}:${i + 1}`;
      if (!key && current === '' && m && m[1] === section) return `${file}:${i + 1}`;
    }
    return headerLine ? `${file}:${headerLine}` : file;
  };
}

/** conf/notify.toml text for a configuration (what PUT writes): every channel, its overrides only where they differ. */
export function renderNotifyToml(config: NotifyConfig): string {
  const channel = config.channels.map((c) => {
    const out: Record<string, unknown> = { name: c.name, kind: c.kind, url: c.url, enabled: c.enabled, min_severity: c.min_severity };
    if (c.events.length > 0) out.events = c.events;
    if (c.programs.length > 0) out.programs = c.programs;
    if (Object.keys(c.headers).length > 0) out.headers = c.headers;
    for (const [k, v] of Object.entries(c.suppression)) if (config.suppression[k as keyof typeof c.suppression] !== v) out[k] = v;
    return out;
  });
  const head = '# Notify channels (docs/notify.md). Written by svcd for PUT /api/v1/system/notify; edits are hot-reloaded.\n';
  return `${head}${stringify({ suppression: config.suppression, delivery: config.delivery, channel })}\n`;
}
