/**
 * The tag svc gives each spawn (SpawnSpec.tag), which the spawner keeps with the process and its
 * exit: a program's process is tagged with its program id; a cron run with its program id and
 * slot (`<id>@<ISO slot>`), so a run that ended while no daemon watched can still be judged (its
 * environment, where SVC_CRON_SLOT is, went with it).
 */
export function spawnTag(programId: string, cronSlot?: string): string {
  return cronSlot === undefined ? programId : `${programId}@${cronSlot}`;
}

/** Reads a tag back; a tag without a slot (also from older daemons) is a program's process. */
export function parseSpawnTag(tag: string): { programId: string; cronSlot?: string } {
  const at = tag.indexOf('@');
  return at < 0 ? { programId: tag } : { programId: tag.slice(0, at), cronSlot: tag.slice(at + 1) };
}
