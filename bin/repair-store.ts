import type { SvcConfig } from '../conf/keys.js';
import type { Logger } from '../conf/logger.js';
import { ProgramStore } from '../state/store.js';

/**
 * `svcd --repair-store`: opens the state store even though its write-ahead log is damaged
 * (LevelDB drops the damaged bytes; a copy of the log is kept aside first), validates every
 * record as a normal start does, and says what was kept. Starts no program.
 */
export async function repairStore(config: SvcConfig, log: Logger): Promise<string> {
  const store = await ProgramStore.open(config.storage.data_dir, { logDir: config.storage.log_dir, log, damage: 'accept' });
  const report = store.report();
  const names = store.list().map((r) => r.config.name).sort();
  await store.close();
  return [
    `state store in ${config.storage.data_dir}: ${report.recovered_at_open ?? 'no damage found'}`,
    `${names.length} programs kept${names.length > 0 ? `: ${names.join(', ')}` : ''}`,
    ...report.quarantined.map((q) => `quarantined ${q.id}${q.name ? ` (${q.name})` : ''}: ${q.reason}`),
    'start svcd normally now; programs lost with the damaged bytes must be created again (or restored from a backup)',
  ].join('\n');
}
