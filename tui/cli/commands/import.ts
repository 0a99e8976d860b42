import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { Argument, Option, type Command } from 'commander';
import { SvcError } from '../../../state/errors.js';
import { IMPORT_FORMATS, type ImportFormat, type ImportPorts } from '../../../stacks/import/types.js';
import type { StackApplyResult } from '../../../api/wire.js';
import { ApiError } from '../../client/errors.js';
import { CliError } from '../errors.js';
import type { CliContext } from '../context.js';
import { planText } from '../plan-lines.js';

const tools = () => import('../migrate-tools.js');

interface ImportCliOptions {
  output?: string;
  as?: 'toml' | 'json' | 'yaml';
  env?: string;
  envFile?: string;
  apply?: boolean;
  prune?: boolean;
  dryRun?: boolean;
  strict?: boolean;
  /** false with --no-logs. */
  logs?: boolean;
}

/** The files and environment of this machine, for the importers. */
const ports: ImportPorts = {
  readText: (path) => readFileSync(path, 'utf8'),
  listDir: (path) => readdirSync(path),
  exists: (path) => existsSync(path),
  env: process.env,
  hostname: hostname(),
};

/** `svc import FORMAT FILE`: another process manager's configuration as an svc stack. */
export function registerImport(program: Command, ctx: CliContext): void {
  program
    .command('import')
    .description('convert a PM2, supervisord, process-compose or Procfile configuration to an svc stack (docs/migrate.md)')
    .addArgument(new Argument('<format>', 'the source format').choices(IMPORT_FORMATS))
    .addArgument(new Argument('<file>', 'ecosystem.config.js/.cjs/.json/.yaml or dump.pm2, supervisord.conf, process-compose.yaml, Procfile'))
    .option('-o, --output <file>', 'write the stack to this file (syntax from its extension) instead of stdout')
    .addOption(new Option('--as <syntax>', 'stack syntax (default: from --output, else toml)').choices(['toml', 'json', 'yaml']))
    .option('--env <name>', 'pm2: merge env_<name> over env, as pm2 start --env <name> does')
    .option('--env-file <file>', 'procfile: the dotenv file (default: .env next to the Procfile)')
    .option('--apply', 'apply the stack now, as svc apply does (PUT /api/v1/stack, source import:<format>)')
    .option('--prune', 'with --apply: remove programs of an earlier import of this format that the file no longer lists')
    .option('--dry-run', 'show the report (and with --apply the plan); write and change nothing')
    .option('--strict', 'fail (exit 1) when a field could not be mapped')
    .option('--no-logs', "leave out the source's log file paths: svc keeps the output in its log_dir (custom paths must be under it)")
    .addHelpText('after', '\nThe report lists every source field that has no svc equivalent (not mapped) or is mapped\nwith a difference (approximated), as file:line: program: field: ..., on stderr.')
    .action(async (format: ImportFormat, file: string, o: ImportCliOptions) => {
      const t = await tools();
      let result: ReturnType<typeof t.importFile>;
      try {
        result = t.importFile(format, file, file, ports, { pm2Env: o.env, envFile: o.envFile });
      } catch (err) {
        if (err instanceof SvcError) throw new CliError(err.message, 2);
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR') throw new CliError(`${file}: cannot read: ${code}`, 2);
        throw err;
      }
      if (o.logs === false) dropLogPaths(result.services);
      const unmapped = result.report.filter((e) => e.kind === 'unmapped').length;
      if (!ctx.json()) {
        for (const entry of result.report) process.stderr.write(`${t.formatReportEntry(entry)}\n`);
        const n = result.services.length;
        process.stderr.write(`imported ${n} program${n === 1 ? '' : 's'} from ${file}: ${unmapped} field${unmapped === 1 ? '' : 's'} not mapped, ${result.report.length - unmapped} approximated\n`);
      }
      if (o.strict && unmapped > 0) throw new CliError(`${unmapped} field${unmapped === 1 ? '' : 's'} not mapped (--strict): nothing was written or applied`, 1);
      const syntax = t.outputSyntax(o.as, o.output, 'toml');
      const text = t.renderImport(result, syntax, file);
      if (o.output && !o.dryRun) writeFileSync(o.output, text);
      let applied: StackApplyResult | null = null;
      if (o.apply) {
        const source = `import:${format}`;
        const query = new URLSearchParams({ source, ...(o.prune ? { prune: 'true' } : {}), ...(o.dryRun ? { dry_run: 'true' } : {}) });
        try {
          applied = await ctx.client().put<StackApplyResult>(`/api/v1/stack?${query.toString()}`, { prune: false, services: result.services });
        } catch (err) {
          if (err instanceof ApiError && /must resolve under storage\.log_dir/.test(err.message)) {
            throw new CliError(`${err.message}\n(the source's log files are outside svcd's log_dir: import with --no-logs, or set [storage] log_dir)`);
          }
          throw err;
        }
      }
      if (ctx.json()) return ctx.print(JSON.stringify({ format, services: result.services, report: result.report, ...(applied ? { applied } : {}) }));
      if (applied) return ctx.print(planText(applied));
      if (o.dryRun) return ctx.print(`(dry run: ${o.output ? `${o.output} was not written` : 'nothing was written'})`);
      if (!o.output) process.stdout.write(text);
    });
}

/** --no-logs: the user chose svc's own log files over the source's paths (said on stderr). */
function dropLogPaths(services: { name: string; stdout_logfile?: string; stderr_logfile?: string }[]): void {
  const changed = services.filter((s) => s.stdout_logfile !== undefined || s.stderr_logfile !== undefined);
  for (const s of changed) {
    delete s.stdout_logfile;
    delete s.stderr_logfile;
  }
  if (changed.length > 0) process.stderr.write(`--no-logs: log file paths of ${changed.map((s) => s.name).join(', ')} left out; svc writes their output to {log_dir}/{uuid}.out and .err\n`);
}
