import { withDefaults, type ProgramConfig } from '../../../state/program.js';
import { toNomadCron } from '../cron.js';
import type { ExportContext, ExportFinding } from '../types.js';
import { programGroup } from './group.js';
import type { NomadJob } from './model.js';

export interface NomadOptions {
  /** ID of the service job (default `svc`); periodic jobs are `<job>-<program>`. */
  job: string;
  datacenters: string[];
}

/**
 * The jobs for a set of programs: one service job with a group per long-running program, and one
 * periodic batch job per cron program (Nomad's `periodic` is a job-level block that needs a batch
 * job). Each is written as its own file, as Nomad takes one job per file.
 */
export function nomadJobs(configs: ProgramConfig[], ctx: ExportContext, opts: NomadOptions, report: (f: ExportFinding) => void): NomadJob[] {
  const services = configs.filter((c) => c.cron === undefined);
  const jobs: NomadJob[] = [];
  if (services.length > 0) {
    jobs.push({ ID: opts.job, Name: opts.job, Type: 'service', Datacenters: opts.datacenters, Meta: { generated_by: 'svc export' }, TaskGroups: services.map((c) => programGroup(c, ctx, report)) });
  }
  for (const config of configs.filter((c) => c.cron !== undefined)) {
    const c = withDefaults(config);
    const id = `${opts.job}-${c.name}`;
    jobs.push({
      ID: id,
      Name: id,
      Type: 'batch',
      Datacenters: opts.datacenters,
      Meta: { generated_by: 'svc export' },
      Periodic: {
        Enabled: c.autostart,
        Specs: [toNomadCron(config.cron ?? '', config.name)],
        SpecType: 'cron',
        ProhibitOverlap: c.on_overlap === 'skip' && c.max_concurrent === 1,
        ...(config.cron_tz ? { TimeZone: config.cron_tz } : {}),
      },
      TaskGroups: [programGroup(config, ctx, report)],
    });
  }
  return jobs;
}
