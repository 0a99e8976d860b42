import type { ProgramConfig } from '../../state/program.js';
import { maskSecrets, secretValues } from '../redact.js';
import type { LogClient, LogLine } from './log-hub.js';

/**
 * A log client for a reader who does not see secrets: each line has the program's env values
 * masked: every value the configuration has had since the stream opened, so an env value set or
 * changed meanwhile (live after a restart) is masked too. The values are worked out again only
 * when the configuration object changes.
 *
 * A line longer than 64 KiB arrives in pieces (`continues`), and a value may straddle two of
 * them: the end of a piece that could be the start of a value is held back and sent at the
 * head of the next message of its source, so the value is masked whole.
 */
export function maskedClient(ws: LogClient, config: () => ProgramConfig | undefined): LogClient {
  let seen: ProgramConfig | undefined | null = null;
  let values: string[] = [];
  const held: Partial<Record<LogLine['source'], string>> = {};
  const current = (): string[] => {
    const now = config();
    if (now !== seen) {
      seen = now;
      // Values replaced meanwhile stay masked: a rotated secret may still be good somewhere.
      const all = new Set([...values, ...secretValues(now)]);
      values = [...all].sort((a, b) => b.length - a.length); // longest first: no partial masks
    }
    return values;
  };
  return {
    get bufferedAmount() {
      return ws.bufferedAmount;
    },
    send: (data) => {
      const secrets = current();
      if (secrets.length === 0 && held.stdout === undefined && held.stderr === undefined) return ws.send(data);
      const line = JSON.parse(data) as LogLine;
      let content = maskSecrets((held[line.source] ?? '') + line.content, secrets);
      delete held[line.source];
      if (line.continues) {
        const cut = holdBackFrom(content, (secrets[0]?.length ?? 1) - 1);
        if (cut < content.length) held[line.source] = content.slice(cut);
        content = content.slice(0, cut);
      }
      ws.send(JSON.stringify({ ...line, content }));
    },
    close: (code, reason) => ws.close(code, reason),
  };
}

/** Where the last `keep` characters of a piece begin, never inside a surrogate pair. */
function holdBackFrom(content: string, keep: number): number {
  const cut = Math.max(0, content.length - keep);
  const code = content.charCodeAt(cut - 1);
  return cut > 0 && code >= 0xd800 && code <= 0xdbff ? cut - 1 : cut;
}
