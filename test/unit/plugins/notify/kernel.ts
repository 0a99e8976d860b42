import { join } from 'node:path';
import { PLUGIN_CATALOG } from '../../../../plugins/host/catalog.js';
import { openPluginLibrary } from '../../../../plugins/host/open-library.js';
import { NotifyNative } from '../../../../plugins/notify/native.js';
import { REPO } from '../../../helpers/daemon.js';
import type { EventRecord, EventType } from '../../../../state/events/types.js';

/** The real notify.so as `npm run build` made it. */
export const NOTIFY_SO = join(REPO, 'dist', 'plugins', 'notify.so');
export const kernel = new NotifyNative(openPluginLibrary(NOTIFY_SO, PLUGIN_CATALOG.notify));

let seq = 0;
export function rec(event: EventType, program: string | null, ts_ms: number, extra: Partial<EventRecord> = {}): EventRecord {
  return { id: `e${seq++}`, ts: Math.floor(ts_ms / 1000), ts_ms, program_id: program ? `id-${program}` : null, program_name: program, event, exit_code: event === 'process_exit' ? 1 : null, signal: null, retry_count: null, duration_secs: null, msg: `${event} of ${program}`, ...extra };
}
