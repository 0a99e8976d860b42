import type { ChannelKind } from '../config/types.js';
import type { Notice } from '../engine/notice.js';
import { summaryLine } from './summary-line.js';

/** Version of the custom JSON body (docs/notify.md, Payloads); raised on an incompatible change. */
export const CUSTOM_PAYLOAD_VERSION = 1;

/** What a message says, whatever the channel kind. */
export interface MessageBody {
  kind: Notice['kind'] | 'test';
  line: string;
  notice: Notice;
  host: string;
}

export function messageOf(notice: Notice, host: string, kind: MessageBody['kind'] = notice.kind): MessageBody {
  return { kind, line: kind === 'test' ? `[INFO] ${host}: test message from svc for channel '${notice.channel}'` : summaryLine(notice, host), notice, host };
}

/** The JSON body for a channel kind: Slack `text`, Discord `content`, a Teams Adaptive Card, or svc's own record. */
export function payloadFor(kind: ChannelKind, m: MessageBody): unknown {
  switch (kind) {
    case 'slack':
      return { text: m.line };
    case 'discord':
      return { content: m.line.slice(0, 2000), username: 'svc', allowed_mentions: { parse: [] } };
    case 'teams':
      return {
        type: 'message',
        attachments: [
          {
            contentType: 'application/vnd.microsoft.card.adaptive',
            content: { type: 'AdaptiveCard', version: '1.4', body: [{ type: 'TextBlock', text: m.line, wrap: true, color: m.notice.severity === 'critical' ? 'attention' : m.notice.severity === 'warning' ? 'warning' : 'default' }] },
          },
        ],
      };
    case 'custom': {
      const n = m.notice;
      return {
        version: CUSTOM_PAYLOAD_VERSION,
        kind: m.kind,
        channel: n.channel,
        host: m.host,
        summary: m.line,
        severity: n.severity,
        event: n.event,
        program_id: n.program_id,
        program_name: n.program_name,
        count: n.count,
        first_ts_ms: n.first_ts_ms,
        last_ts_ms: n.last_ts_ms,
        folded: n.folded,
        suppressed: n.suppressed,
        record: n.record,
      };
    }
  }
}
