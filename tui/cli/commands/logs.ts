import type { Command } from 'commander';
import type { LogLine, LogsResult, ProgramSummary } from '../../../api/wire.js';
import { coloursWanted } from '../../client/colours.js';
import { routes } from '../../client/routes.js';
import type { CliContext } from '../context.js';
import { CliError } from '../errors.js';
import { formatLogLine, type LinePrefix } from '../log-lines.js';
import { resolvePrograms } from '../programs.js';
import { compareNames } from '../../client/compare-names.js';

interface Flags {
  tail?: string;
  source: string;
  follow?: boolean;
  timestamps?: boolean;
}

/** Lines per program when `svc logs` shows every program (PM2 shows 15). */
const ALL_TAIL = '20';

/** The logs route's maximum `tail` (spec, Limits). */
const MAX_TAIL = 5000;

export function registerLogs(program: Command, ctx: CliContext): void {
  program
    .command('logs [program]')
    .description('print the last lines of a program\'s stdout and stderr, or of every program with its name (-f: then follow new lines)')
    .option('-n, --tail <lines>', 'lines from the end of each file (max 5000; default 200, or 20 per program without a name)')
    .option('-s, --source <source>', 'stdout, stderr or both', 'both')
    .option('-f, --follow', 'keep streaming new lines until Ctrl-C')
    .option('-t, --timestamps', 'prefix each line with the time svcd read it (always on for every program with -f)')
    .action(async (ref: string | undefined, o: Flags) => {
      if (o.tail !== undefined && !/^\d+$/.test(o.tail)) throw new CliError(`--tail: must be a whole number, got '${o.tail}'`, 2);
      if (o.tail !== undefined && Number(o.tail) > MAX_TAIL) throw new CliError(`--tail: must be at most ${MAX_TAIL}, got '${o.tail}'`, 2);
      if (!['stdout', 'stderr', 'both'].includes(o.source)) throw new CliError(`--source: must be stdout, stderr or both, got '${o.source}'`, 2);
      const targets = ref === undefined ? await routes.listPrograms(ctx.client()) : await resolvePrograms(ctx.client(), [ref]);
      if (targets.length === 0) return ctx.print('no programs');
      await showLogs(ctx, [...targets].sort((a, b) => compareNames(a.name, b.name)), ref === undefined, o);
    });
}

async function showLogs(ctx: CliContext, targets: ProgramSummary[], many: boolean, o: Flags): Promise<void> {
  const tail = o.tail ?? (many ? ALL_TAIL : '200');
  // Follow: open the streams before reading the tails, so no line falls between the two.
  // The WebSocket client (ws) is loaded only when following.
  const open = o.follow ? (await import('../../client/log-stream.js')).openLogStream : null;
  const streams = open ? await Promise.all(targets.map((p) => open(ctx.client(), p.id))) : [];
  // On a terminal what programs wrote is made safe to show; into a pipe or a file it goes as written.
  const terminal = process.stdout.isTTY ? { colour: coloursWanted() } : undefined;
  const prefix = (p: ProgramSummary): LinePrefix => ({ name: many ? p.name : undefined, source: o.source === 'both', timestamps: Boolean(o.timestamps) || (many && Boolean(o.follow)), terminal });
  const show = (p: ProgramSummary, line: LogLine) => (ctx.json() ? ctx.print(JSON.stringify(many ? { name: p.name, id: p.id, ...line } : line)) : ctx.print(formatLogLine(line, prefix(p))));
  const tails: { p: ProgramSummary; res: LogsResult }[] = [];
  for (const p of targets) tails.push({ p, res: await routes.logs(ctx.client(), p.id, new URLSearchParams({ tail, source: o.source })) });
  if (!o.follow && ctx.json()) return ctx.print(JSON.stringify(many ? tails.map((t) => ({ name: t.p.name, ...t.res })) : tails[0].res, null, 2));
  for (const t of tails) for (const line of t.res.logs) show(t.p, line);
  // An empty answer is said (on stderr, so a pipe still gets only the lines), not left blank.
  if (!ctx.json() && tail !== '0' && tails.every((t) => t.res.logs.length === 0)) {
    const whose = many ? 'any program' : targets[0].name;
    process.stderr.write(`svc: no output from ${whose} yet${o.source === 'both' ? '' : ` on ${o.source}`}${o.follow ? '; following' : ''}\n`);
  }
  if (!o.follow) return;
  process.once('SIGINT', () => {
    for (const s of streams) s.close();
    process.exit(0); // Ctrl-C is the normal way to stop following
  });
  // One file for both streams (redirect_stderr): svcd streams its lines as stdout, so for
  // `-s stderr` they are taken as the stderr the tail showed them as.
  const oneFile = o.source === 'stderr' ? await Promise.all(targets.map((p) => sharesOneFile(ctx, p.id))) : targets.map(() => false);
  // Lines of every program print as they arrive: interleaved by the time svcd read them.
  streams.forEach((s, i) => {
    if (!oneFile[i]) return s.start((line) => (o.source === 'both' || line.source === o.source) && show(targets[i], line), tails[i].res.logs);
    const tail = tails[i].res.logs.map((l) => ({ ...l, source: 'stdout' as const }));
    s.start((line) => show(targets[i], { ...line, source: 'stderr' }), tail);
  });
  if (!many) return streams[0].done;
  // Every program: one that is removed drops out with a note; the others keep streaming.
  await Promise.all(
    streams.map((s, i) =>
      s.done.catch((err: Error) => {
        process.stderr.write(`svc: ${targets[i].name}: ${err.message}\n`);
      }),
    ),
  );
}

async function sharesOneFile(ctx: CliContext, id: string): Promise<boolean> {
  const { config } = await routes.getProgram(ctx.client(), id);
  return config.stdout_logfile !== undefined && config.stdout_logfile === config.stderr_logfile;
}
