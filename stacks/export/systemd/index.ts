import type { ProgramConfig } from '../../../state/program.js';
import type { ExportContext, ExportFinding, ExportResult } from '../types.js';
import { programUnits, type SystemdOptions } from './program-unit.js';

/** systemd units for the given programs (see program-unit.ts), in the order given. */
export function exportSystemd(configs: ProgramConfig[], ctx: ExportContext, opts: SystemdOptions): ExportResult {
  const report: ExportFinding[] = [];
  const files = configs.flatMap((config) => programUnits(config, ctx, opts, (f) => report.push(f)));
  return { files, report };
}
