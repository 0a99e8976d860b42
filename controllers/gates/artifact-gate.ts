import type { OtaView } from '../../state/ota.js';
import type { ProgramConfig } from '../../state/program.js';

/**
 * Start gate of a program with an `artifact` (docs/ota.md, "When an update starts"): it does not
 * start before the OTA controller has looked at the destination (`ota` not published yet), nor
 * while the first install onto a missing destination is under way (nothing installed, a target
 * being fetched). Otherwise a new program whose command is its artifact would spawn before the
 * file exists and go Fatal ("command not found"), leaving the update waiting in `restarting` for
 * a process nobody starts. Once an install gives up (target cleared) the gate opens and the start
 * fails with its real reason. Cron programs are not gated: a firing without the file is
 * `cron_spawn_failed` and the schedule goes on. Returns the status detail, or null.
 */
export function artifactBlocker(config: Pick<ProgramConfig, 'artifact' | 'cron'>, ota: OtaView | undefined): string | null {
  if (!config.artifact || config.cron !== undefined) return null;
  if (!ota) return 'waiting for its artifact: the destination is being inspected';
  if (ota.installed === null && ota.target !== null) return `waiting for its artifact to be installed (ota ${ota.phase})`;
  return null;
}
