import type { ProgramConfig } from '../../../state/program.js';
import type { ExportContext, ExportFinding, ExportResult } from '../types.js';
import { programUnits, type SystemdOptions } from './program-unit.js';

/** systemd units for the given programs (see program-unit.ts), in the order given. */
export function exportSystemd(configs: ProgramConfig[], ctx: ExportContext, opts: SystemdOptions): ExportResult {
  const report: ExportFinding[] = [];
  const once: ExportContext = { ...ctx, readText: ctx.readText ? readOnce((path) => ctx.readText!(path)) : undefined };
  const files = configs.flatMap((config) => programUnits(config, once, opts, (f) => report.push(f)));
  return { files, report };
}

/** Each env_file read once for the whole export: an import gives every program the same `.env`. */
function readOnce(read: (path: string) => string | null): (path: string) => string | null {
  const texts = new Map<string, string | null>();
  return (path) => {
    if (!texts.has(path)) texts.set(path, read(path));
    return texts.get(path) ?? null;
  };
}
