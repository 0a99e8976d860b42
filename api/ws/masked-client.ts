import type { ProgramConfig } from '../../state/program.js';
import { maskSecrets, secretValues } from '../redact.js';
import type { LogClient } from './log-hub.js';

/**
 * A log client for a reader who does not see secrets: each message has the program's env values
 * masked (their JSON-escaped form): every value the configuration has had since the stream
 * opened, so an env value set or changed meanwhile (live after a restart) is masked too. The
 * values are worked out again only when the configuration object changes.
 */
export function maskedClient(ws: LogClient, config: () => ProgramConfig | undefined): LogClient {
  let seen: ProgramConfig | undefined | null = null;
  let escaped: string[] = [];
  const current = (): string[] => {
    const now = config();
    if (now !== seen) {
      seen = now;
      // Values replaced meanwhile stay masked: a rotated secret may still be good somewhere.
      const all = new Set([...escaped, ...secretValues(now).map((v) => JSON.stringify(v).slice(1, -1))]);
      escaped = [...all].sort((a, b) => b.length - a.length); // longest first: no partial masks
    }
    return escaped;
  };
  return {
    get bufferedAmount() {
      return ws.bufferedAmount;
    },
    send: (data) => {
      const values = current();
      ws.send(values.length === 0 ? data : maskSecrets(data, values));
    },
    close: (code, reason) => ws.close(code, reason),
  };
}
