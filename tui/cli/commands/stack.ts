import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { Command } from 'commander';
import type { LoadedStack } from '../../../stacks/load.js';
import { PLAN_ID_PATTERN } from '../../../stacks/plan-id.js';
import { ApiError } from '../../client/errors.js';
import { RawBody } from '../../client/http.js';
import { routes } from '../../client/routes.js';
import type { CliContext } from '../context.js';
import { CliError, directoryProblem, unknownFormat } from '../errors.js';
import { planText } from '../plan-lines.js';
import { resolvePrograms } from '../programs.js';
import { DEFAULT_STABLE_SECS, DEFAULT_WAIT_SECS, waitJson } from '../../../state/readiness.js';
import { waitAndReport, waitOptions } from './wait.js';

const tools = () => import('../stack-tools.js');

const read = (path: string) => readFileSync(path, 'utf8');

/**
 * A reader that reads each file once: the check, the body sent and the places given to svcd's
 * answers are then of one text, even when the file changes meanwhile, and a stack that comes
 * through a named pipe can be applied at all.
 */
function readEachOnce(): (path: string) => string {
  const texts = new Map<string, string>();
  return (path) => {
    const abs = resolve(path);
    const text = texts.get(abs) ?? read(abs);
    texts.set(abs, text);
    return text;
  };
}

interface ApplyFlags {
  prune?: boolean;
  dryRun?: boolean;
  plan?: string;
  wait?: boolean;
  waitTimeout?: string;
  waitStable?: string;
}

/** `svc apply` and `svc check` (offline): stacks as files. `svc export` is in export.ts. */
export function registerStack(program: Command, ctx: CliContext): void {
  program
    .command('apply <file>')
    .description('apply a stack file (JSON, TOML or YAML); prints + created, ~ updated, = unchanged, - pruned')
    .option('--prune', 'remove programs of this stack (source stack:<file>) that the file no longer lists')
    .option('--dry-run', 'show what would change and change nothing')
    .option('--plan <id>', 'apply only if the plan is still the one a dry run showed (its plan id); otherwise change nothing and exit 1')
    .option('--wait', 'then wait until the stack\'s programs are ready, as svc wait does; exit 1 when one fails or the time is up')
    .option('--wait-timeout <secs>', `with --wait: give up after this many seconds (default ${DEFAULT_WAIT_SECS})`)
    .option('--wait-stable <secs>', `with --wait: a program without a health check must have run this long (default ${DEFAULT_STABLE_SECS})`)
    .action(async (file: string, o: ApplyFlags) => {
      const source = `stack:${basename(file)}`;
      if (o.plan !== undefined && !PLAN_ID_PATTERN.test(o.plan)) throw new CliError(`--plan: '${o.plan}' is not a plan id (16 hex digits, as svc apply --dry-run prints it)`, 2);
      if (o.wait && o.dryRun) throw new CliError('--wait: a dry run starts nothing to wait for', 2);
      if (!o.wait && (o.waitTimeout !== undefined || o.waitStable !== undefined)) throw new CliError(`--wait-${o.waitTimeout !== undefined ? 'timeout' : 'stable'} needs --wait`, 2);
      const waiting = o.wait ? waitOptions({ timeout: o.waitTimeout, stable: o.waitStable }, '--wait-') : null;
      // Validate here first, as `svc check` does, so problems keep their `path:line:col:` prefix
      // (the daemon sees only the text, not the file); what only svcd can judge comes after.
      const { loadCheckedStack } = await tools();
      const directory = directoryProblem(file);
      if (directory) throw new CliError(directory, 2);
      const readFile = readEachOnce();
      const { result: checked, stack } = loadCheckedStack(file, readFile);
      if (checked.errors.length > 0 || !stack) throw new CliError(checked.errors.join('\n'), 2);
      if (o.prune || stack.prune) warnOwnSources(stack, source);
      const body = await stackBody(file, stack, readFile);
      const query = new URLSearchParams({ source, ...(o.prune ? { prune: 'true' } : {}), ...(o.dryRun ? { dry_run: 'true' } : {}), ...(o.plan !== undefined ? { plan: o.plan } : {}) });
      // An included file that lists no service now still owns its programs: svcd learns the files here.
      for (const file of stack.includes) query.append('include', file);
      const res = await routes.applyStack(ctx.client(), query, body).catch(async (err: unknown) => {
        // svcd names services by their index in the body: give each problem its place in the file.
        if (!(err instanceof ApiError) || err.status !== 400) throw err;
        throw new ApiError((await tools()).locateAnswer(err.message, stack), err.kind, err.status);
      });
      if (!waiting) {
        if (ctx.json()) return ctx.print(JSON.stringify(res));
        return ctx.print(planText(res, true));
      }
      if (!ctx.json()) ctx.print(planText(res, true));
      // The stack's own programs, by name (a program the stack sets to autostart = false is not waited for).
      const names = stack.services.map((s) => (s.body as { name: string }).name);
      const targets = (await resolvePrograms(ctx.client(), names)).map((p) => ({ id: p.id, name: p.name, named: false }));
      const outcome = await waitAndReport(ctx, targets, waiting);
      if (ctx.json()) ctx.print(JSON.stringify({ ...res, wait: waitJson(outcome) }));
    });

  program
    .command('check <files...>')
    .description('validate stack files offline (no daemon): syntax, schema, includes, duplicates, depends_on')
    .action(async (files: string[]) => {
      const { checkStackFile } = await tools();
      let failed = 0;
      const results = files.map((file) => {
        const directory = directoryProblem(file);
        return directory ? { file, services: 0, errors: [directory], warnings: [] } : checkStackFile(file, read);
      });
      // --json: every file's result on stdout (file, services, errors, warnings), exit 1 if any is invalid.
      if (ctx.json()) ctx.print(JSON.stringify(results.map((r) => ({ ...r, ok: r.errors.length === 0 })), null, 2));
      for (const result of results) {
        const file = result.file;
        if (ctx.json()) {
          if (result.errors.length > 0) failed++;
          continue;
        }
        for (const w of result.warnings) process.stderr.write(`warning: ${w}\n`);
        if (result.errors.length > 0) {
          failed++;
          for (const e of result.errors) process.stderr.write(`${e}\n`);
        } else ctx.print(`${file}: ok (${result.services} service${result.services === 1 ? '' : 's'})`);
      }
      if (failed > 0) throw new CliError(`${failed} of ${files.length} file${files.length === 1 ? '' : 's'} invalid`, 1);
    });
}

/**
 * A prune reaches only the programs labelled with the file's source: services that set their own
 * `source` (a `svc export`, which writes each program's) stay when edited out of the file.
 * Said before the apply, so that a deploy that relies on the prune is not surprised.
 */
function warnOwnSources(stack: LoadedStack, source: string): void {
  const own = stack.services.flatMap((s) => {
    const label = (s.body as { source?: unknown }).source;
    return typeof label === 'string' && label !== source ? [`${(s.body as { name?: unknown }).name as string} (${label === '' ? 'no label' : label})`] : [];
  });
  if (own.length === 0) return;
  const shown = own.length > 5 ? `${own.slice(0, 5).join(', ')} and ${own.length - 5} more` : own.join(', ');
  process.stderr.write(
    `warning: ${own.length === 1 ? 'a service sets its' : `${own.length} services set their`} own source: ${shown}; the prune removes only programs labelled ${source}, so ${own.length === 1 ? 'it stays' : 'these stay'} when edited out of the file (remove the source lines to let the file own them; docs/stacks.md)\n`,
  );
}

/**
 * The request body for a checked stack file: the file as is, with its Content-Type; a stack with
 * `include` is sent resolved (the daemon cannot read our files) as JSON, included services
 * labelled `include:<file>`, in the order of the stack's services.
 */
async function stackBody(file: string, stack: LoadedStack, readFile: (path: string) => string): Promise<RawBody> {
  const { formatFromName, contentTypeOf } = await tools();
  const format = formatFromName(file);
  if (!format) throw unknownFormat(file);
  if (stack.includes.length === 0) return new RawBody(readFile(file), contentTypeOf(format));
  const services = stack.services.map((s) => {
    const body = s.body as Record<string, unknown>;
    return s.includedFrom && body.source === undefined ? { ...body, source: `include:${s.includedFrom}` } : body;
  });
  return new RawBody(JSON.stringify({ prune: stack.prune, services }), contentTypeOf('json'));
}
