import { accessSync, constants, readFileSync, statSync, writeFileSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { Option, type Command } from 'commander';
import type { ProgramConfig } from '../../../state/program.js';
import type { ExportContext, ExportedFile, ExportFinding } from '../../../stacks/export/types.js';
import { CliError, makeFolder } from '../errors.js';
import type { CliContext } from '../context.js';
import { defaultRoot } from '../../../conf/default-root.js';
import { distPath } from '../../../conf/dist-path.js';

const tools = () => import('../migrate-tools.js');

interface ExportCliOptions {
  format: 'stack' | 'systemd' | 'nomad' | 'toml' | 'json' | 'yaml';
  as?: 'toml' | 'json' | 'yaml';
  output?: string;
  self?: boolean;
  prefix: string;
  job: string;
  datacenter: string[];
  root?: string;
  logDir?: string;
  stopTimeout: string;
}

/** `svc export`: the desired state as a stack, systemd units or Nomad jobs. */
export function registerExport(program: Command, ctx: CliContext): void {
  program
    .command('export [names...]')
    .description('write programs (default: all) as a stack that re-applies to no change, as systemd units, or as Nomad jobs')
    .addOption(new Option('--format <format>', 'stack, systemd or nomad (toml, json, yaml: a stack in that syntax)').choices(['stack', 'systemd', 'nomad', 'toml', 'json', 'yaml']).default('stack'))
    .addOption(new Option('--as <syntax>', 'stack syntax (default: from --output, else toml; json with --json)').choices(['toml', 'json', 'yaml']))
    .option('-o, --output <path>', 'stack: the file to write; systemd, nomad: the folder for the files (created)')
    .option('--self', 'systemd: the unit that runs svcd itself (needs no daemon)')
    .option('--prefix <prefix>', 'systemd: prefix of the unit names', '')
    .option('--job <id>', 'nomad: ID of the service job (cron programs become <id>-<name> periodic jobs)', 'svc')
    .option('--datacenter <dc...>', 'nomad: datacenters of the jobs', ['*'])
    .option('--root <dir>', "the daemon's SVC_ROOT, for relative paths (default: $SVC_ROOT, else the current folder; ./.svc in a source checkout)")
    .option('--log-dir <dir>', "the daemon's [storage] log_dir, for relative log paths (default: <root>/logs)")
    .option('--stop-timeout <secs>', 'systemd --self: TimeoutStopSec of svcd', '120')
    .action(async (names: string[], o: ExportCliOptions) => {
      const t = await tools();
      const root = o.root ? resolve(o.root) : defaultRoot(process.cwd(), process.env).root;
      if (o.self) {
        if (o.format !== 'systemd') throw new CliError('--self: only with --format systemd', 2);
        const svcd = distPath('bin/svcd.js');
        const content = t.svcdUnit({ node: process.execPath, svcd, root, stopTimeoutSecs: Number(o.stopTimeout) || 120 });
        return emit([{ name: 'svcd.service', content }], [], o, ctx);
      }
      const stack = await ctx.client().get<{ prune: boolean; services: ProgramConfig[] }>('/api/v1/stack');
      const configs = select(stack.services, names);
      // Below admin svcd serves secrets as [redacted]: written out, the marker would replace them.
      const hidden = t.redactedFields(configs);
      if (hidden.length > 0) {
        throw new CliError(
          `svcd served secrets of ${hidden.length === 1 ? 'this program' : 'these programs'} redacted to this credential (its role does not see them): ${hidden.join('; ')}; ` +
            'an export would write [redacted] in their place (and a stack that re-applied it would overwrite the real values). Export with an admin credential; nothing was written',
        );
      }
      if (o.format === 'stack' || o.format === 'toml' || o.format === 'json' || o.format === 'yaml') {
        // --json without a syntax asked for: the stack as JSON, as every command prints its data.
        const syntax = o.format !== 'stack' ? o.format : t.outputSyntax(o.as, o.output, ctx.json() ? 'json' : 'toml');
        const text = t.stringifyStack({ prune: stack.prune, services: configs }, syntax);
        if (o.output) writeFileSync(o.output, text);
        else process.stdout.write(text);
        return;
      }
      const exportCtx: ExportContext = { root, logDir: resolve(root, o.logDir ?? 'logs'), resolveExecutable: which, readText: readSmallFile };
      const result = o.format === 'systemd' ? t.exportSystemd(configs, exportCtx, { prefix: o.prefix }) : t.exportNomad(configs, exportCtx, { job: o.job, datacenters: o.datacenter });
      const exported = new Set(configs.map((c) => c.name));
      for (const c of configs) {
        const outside = (c.depends_on ?? []).filter((d) => !exported.has(d));
        if (outside.length > 0 && o.format === 'systemd') result.report.push({ program: c.name, field: 'depends_on', kind: 'approximated', message: `Requires= names units that are not exported here: ${outside.join(', ')}` });
      }
      if (!ctx.json()) for (const f of result.report) process.stderr.write(`${t.formatExportFinding(f)}\n`);
      emit(result.files, result.report, o, ctx);
    });
}

/** The stored configs of the named programs (all when none is named), in the order named. */
function select(all: ProgramConfig[], names: string[]): ProgramConfig[] {
  if (names.length === 0) return all;
  return names.map((name) => {
    const found = all.find((c) => c.name === name);
    if (!found) throw new CliError(`no program named '${name}' (see: svc list)`);
    return found;
  });
}

/** Writes the files into the --output folder, or prints them (Nomad: the HCL ones) with a header each. */
function emit(files: ExportedFile[], report: ExportFinding[], o: ExportCliOptions, ctx: CliContext): void {
  if (o.output) {
    makeFolder(o.output, '--output');
    for (const f of files) writeFileSync(join(o.output, f.name), f.content);
    if (!ctx.json()) process.stderr.write(`wrote ${files.map((f) => f.name).join(', ')} to ${o.output}\n`);
    return;
  }
  if (ctx.json()) return ctx.print(JSON.stringify({ files, report }));
  const shown = o.format === 'nomad' ? files.filter((f) => f.name.endsWith('.hcl')) : files;
  process.stdout.write(shown.map((f) => (shown.length > 1 ? `# ---- ${f.name} ----\n${f.content}` : f.content)).join('\n'));
}

/** A command name's path in this machine's PATH, as the exported units and jobs need it. */
function which(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this folder; try the next
    }
  }
  return null;
}

/** A regular file of at most 1 MiB (svcd's env_file cap) as text, or null (missing, unreadable, other machine). */
function readSmallFile(path: string): string | null {
  try {
    const st = statSync(path);
    return st.isFile() && st.size <= 1024 * 1024 ? readFileSync(path, 'utf8') : null;
  } catch {
    return null;
  }
}
