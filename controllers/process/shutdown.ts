import type { ObservedRegistry } from '../../state/observed.js';
import { withDefaults, type ProgramRecord } from '../../state/program.js';
import { ALIVE } from '../../state/status.js';
import { stopLevels } from '../gates/stop-order.js';
import type { ProcessController } from './controller.js';

/**
 * Stops every program for daemon shutdown: dependants first, then descending priority; each
 * level is gone (or past its stopsecs, when SIGKILL follows) before the next is asked to stop.
 */
export async function stopAllForShutdown(
  records: ProgramRecord[],
  controller: Pick<ProcessController, 'markShutdown'>, // process and cron controllers alike
  observed: ObservedRegistry,
): Promise<void> {
  for (const level of stopLevels(records)) {
    controller.markShutdown(level.map((r) => r.id));
    await Promise.all(
      level.map((r) => observed.waitFor(r.id, (o) => !o || !ALIVE.has(o.status), withDefaults(r.config).stopsecs * 1000 + 5000)),
    );
  }
}
