import Router from '@koa/router';
import { invalid } from '../../state/errors.js';
import { StackApplier } from '../../stacks/apply.js';
import { planParam } from '../../stacks/plan-id.js';
import { stackFromDocument } from '../../stacks/load.js';
import { sharedDocumentParser } from '../../stacks/parse-worker/parser.js';
import { formatFromContentType } from '../../stacks/media-type.js';
import { readText } from '../body.js';
import { gitopsRouter } from './gitops.js';
import type { ApiDeps } from '../deps.js';
import { booleanParam, integerParam, optionalBooleanParam } from '../params.js';
import { DEFAULT_STABLE_SECS, MAX_WAIT_SECS, waitJson, waitReady } from '../../state/readiness.js';
import { requestPollTime, stateReadinessSource } from '../readiness-source.js';
import { redactConfig, seesSecrets } from '../redact.js';
import type { StackApplyResult, StackExport, StackStatus } from '../wire.js';

/**
 * Stack routes: PUT applies a stack (JSON, TOML or YAML body), GET returns the stored desired
 * state as a stack that re-applies to no change, GET /stack/status reports the watched directory.
 */
export function stackRouter(deps: ApiDeps): Router {
  const { store, config } = deps;
  const applier = deps.stacks?.applier ?? new StackApplier(store, { logDir: config.storage.log_dir, now: () => deps.clock.now(), boot: deps.boot });
  const router = new Router();

  router.put('/stack', async (ctx) => {
    const format = formatFromContentType(ctx.get('content-type'));
    const source = sourceParam(ctx.query.source);
    const dryRun = booleanParam(ctx.query.dry_run, 'dry_run', false);
    const wait = waitParams(ctx.query.wait, ctx.query.wait_stable, dryRun);
    const text = await readText(ctx, config.server.max_body_bytes);
    if (text.trim() === '') throw invalid('body: a stack document is required');
    // TOML/YAML positions are written `path:line:col`; the path is the file named by the source, if any.
    const file = /^stack:.+\.(json|toml|ya?ml)$/i.test(source) ? source.slice('stack:'.length) : `stack.${format}`;
    // Large TOML/YAML bodies parse in a worker thread under a heap cap and a deadline (finding 9).
    const stack = stackFromDocument(await sharedDocumentParser().parse(text, format, format === 'json' ? undefined : file));
    const result = await applier.apply({
      stack,
      source,
      // Given, ?prune= overrides the stack's own `prune` either way: ?prune=false never prunes.
      prune: optionalBooleanParam(ctx.query.prune, 'prune'),
      // Without ?source= the request is the whole desired state: prune reaches every program.
      pruneAll: ctx.query.source === undefined,
      dryRun,
      // The files `svc apply` resolved for this stack: their programs are its own even when a file lists none now.
      alsoOwned: includeParam(ctx.query.include).map((file) => `include:${file}`),
      expectPlan: planParam(ctx.query.plan),
    });
    const answer: StackApplyResult = { status: 'ok', dry_run: result.dryRun, source, lines: result.lines, plan: result.plan };
    if (!wait) {
      ctx.body = answer;
      return;
    }
    // ?wait=: until the stack's programs are ready, one fails, or the time is up (docs/stacks.md).
    // The answer is 200 either way (the apply is done); `wait.ok` says whether they are ready.
    let gone = false;
    ctx.res.once('close', () => (gone = true));
    const targets = stack.services.flatMap((s) => {
      const record = store.getByName((s.body as { name: string }).name);
      return record ? [{ id: record.id, name: record.config.name, named: false }] : [];
    });
    try {
      const outcome = await waitReady(stateReadinessSource(deps, !seesSecrets(ctx)), targets, wait, requestPollTime(deps, () => gone));
      ctx.body = { ...answer, wait: waitJson(outcome) } satisfies StackApplyResult;
    } catch (err) {
      if (!gone) throw err; // else nobody reads the answer
    }
  });

  router.get('/stack', (ctx) => {
    const records = [...store.list()].sort((a, b) => a.created_at - b.created_at || a.config.name.localeCompare(b.config.name));
    // An unlabelled program is exported with `source: ""` so that re-applying keeps it unlabelled.
    const plain = seesSecrets(ctx);
    ctx.body = { prune: false, services: records.map((r) => ({ ...(plain ? r.config : redactConfig(r.config)), source: r.config.source ?? '' })) } satisfies StackExport;
  });

  router.get('/stack/status', (ctx) => {
    // The watched directory's files, then the git sources (docs/gitops.md).
    ctx.body = { ...(deps.stacks?.status() ?? { dir: config.stacks.dir, watching: false, files: [] }), git: deps.gitops?.status() ?? [] } satisfies StackStatus;
  });

  const git = gitopsRouter(deps, applier);
  router.use(git.routes(), git.allowedMethods());

  return router;
}

function sourceParam(value: string | string[] | undefined): string {
  if (Array.isArray(value)) throw invalid('source: given more than once');
  if (value === undefined || value === '') return 'stack:api';
  if (value.length > 128 || hasControl(value)) throw invalid('source: must not contain control characters (at most 128 characters)');
  return value;
}

const MAX_INCLUDES = 1000;

/** `?include=FILE`, repeatable: the included files of a stack sent resolved (`svc apply`), for its prune scope. */
function includeParam(value: string | string[] | undefined): string[] {
  const files = value === undefined ? [] : Array.isArray(value) ? value : [value];
  if (files.length > MAX_INCLUDES) throw invalid(`include: at most ${MAX_INCLUDES} files`);
  for (const file of files) {
    if (file === '' || file.length > 4096 || hasControl(file)) throw invalid('include: each must be a file path of 1 to 4096 characters, without control characters');
  }
  return files;
}

function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** `?wait=SECS` (1 to MAX_WAIT_SECS) and `?wait_stable=SECS` (default DEFAULT_STABLE_SECS): null without `wait`; 400 naming the parameter otherwise. */
function waitParams(wait: string | string[] | undefined, stable: string | string[] | undefined, dryRun: boolean): { timeoutMs: number; stableMs: number } | null {
  const secs = integerParam(wait, 'wait', { min: 1, max: MAX_WAIT_SECS });
  const stableSecs = integerParam(stable, 'wait_stable', { min: 0, max: MAX_WAIT_SECS });
  if (secs === undefined) {
    if (stableSecs !== undefined) throw invalid('wait_stable: needs wait (seconds to wait for the programs to be ready)');
    return null;
  }
  if (dryRun) throw invalid('wait: a dry run starts nothing to wait for');
  return { timeoutMs: secs * 1000, stableMs: (stableSecs ?? DEFAULT_STABLE_SECS) * 1000 };
}
