import Router from '@koa/router';
import type { Context } from 'koa';
import { invalid, notFound, SvcError } from '../../state/errors.js';
import type { ProgramRecord } from '../../state/program.js';
import { validateCreate, validateUpdate, validators } from '../../state/schema/validate.js';
import { logPaths } from '../../log-files/paths.js';
import { tailLines } from '../../log-files/tail.js';
import { logFileError } from '../../log-files/file-errors.js';
import { readJson } from '../body.js';
import type { ApiDeps } from '../deps.js';
import { programOfPath, UUID, uuidHint } from '../program-path.js';
import { departingDetail, departingSummary, programDetail, programSummary } from '../views.js';
import type { Departing } from '../../state/departing.js';
import { parseBatch } from './batch.js';
import { batchTargets, removedError, runBatch } from '../../operations/batch.js';
import { booleanParam, integerParam, textParam } from '../params.js';
import { requirePermission } from '../auth/middleware.js';
import { auditDetail } from '../auth/audit.js';
import { maskSecrets, redactConfig, secretValues, seesSecrets } from '../redact.js';
import type { BatchResult, CreateResult, LogLine, LogsResult } from '../wire.js';

/**
 * `/programs/batch` takes POST only; with GET, PUT or DELETE the router reads `batch` as a
 * program id. Answered like any other method a path does not take: 405 with `Allow`.
 */
function refuseBatchPath(ctx: Context): void {
  if (ctx.params.id !== 'batch') return;
  ctx.set('Allow', 'POST');
  throw new SvcError('SVC_METHOD_NOT_ALLOWED', `method ${ctx.method} not allowed on ${ctx.path}`);
}

/** Programs: list, create, detail, update, remove, actions and logs. `{id}` is always the UUID. */
export function programsRouter(deps: ApiDeps): Router {
  const { store, observed, actions, config, clock, boot } = deps;
  const router = new Router();
  validators(); // compiled at boot, not on the first write
  const maxBody = config.server.max_body_bytes;
  const ctxFor = (locate?: Parameters<typeof validateCreate>[1]['locate'], basePath?: (string | number)[]) => ({
    logDir: config.storage.log_dir,
    locate,
    basePath,
  });

  /** A removed program whose process is still stopping, when the path names one. */
  const departingOf = (ctx: Context): Departing | undefined => {
    const id = String(ctx.params.id).toLowerCase();
    return store.get(id) ? undefined : deps.departing?.get(id);
  };

  const find = (ctx: Context): ProgramRecord => {
    refuseBatchPath(ctx);
    const gone = departingOf(ctx);
    if (gone) throw notFound(removedError(gone));
    return programOfPath(store, ctx.params.id);
  };

  router.get('/programs', async (ctx) => {
    await observed.readUsage(clock.now()); // sampled on demand: nothing samples while nobody reads
    const departing = deps.departing?.list() ?? [];
    ctx.body = [...store.list().map((r) => programSummary(r, observed.get(r.id))), ...departing.map((d) => departingSummary(d, observed.get(d.record.id)))];
  });

  router.post('/programs', async (ctx) => {
    const { value, locate } = await readJson(ctx, maxBody);
    const many = Array.isArray(value);
    const bodies = many ? value : [value];
    if (bodies.length === 0) throw invalid('body: at least one program is required');
    const configs = bodies.map((body, i) => validateCreate(body, { ...ctxFor(locate, many ? [i] : []), prefix: many ? prefixFor(body, i) : undefined }));
    const created = await store.create(configs);
    auditDetail(ctx, { ids: created.map((r) => r.id), names: created.map((r) => r.config.name) });
    ctx.status = 201;
    ctx.body = (many ? { ids: created.map((r) => r.id) } : { id: created[0]?.id, ids: created.map((r) => r.id) }) satisfies CreateResult;
  });

  router.post('/programs/batch', async (ctx) => {
    const { value } = await readJson(ctx, maxBody);
    const batch = parseBatch(value);
    if (batch.action.type === 'Remove') {
      requirePermission(ctx, 'program.remove');
      for (const r of batchTargets(batch, store.list())) deps.gitops?.refuseDrift(r, 'remove');
    }
    ctx.body = (await runBatch(batch, store, actions, deps.departing)) satisfies BatchResult;
    auditDetail(ctx, { action: batch.action.type, ...(batch.target_ids ? { target_ids: batch.target_ids } : {}), ...(batch.group_name ? { group_name: batch.group_name } : {}), ...(batch.select_all ? { select_all: true } : {}) });
  });

  router.get('/programs/:id', async (ctx) => {
    const gone = departingOf(ctx);
    const record = gone?.record ?? find(ctx);
    await observed.readUsage(clock.now());
    const shown = seesSecrets(ctx) ? record : { ...record, config: redactConfig(record.config) };
    const o = observed.get(record.id);
    ctx.body = gone ? departingDetail({ ...gone, record: shown }, o, clock.now(), boot) : programDetail(shown, o, clock.now(), boot);
  });

  router.put('/programs/:id', async (ctx) => {
    refuseBatchPath(ctx);
    const id = String(ctx.params.id).toLowerCase();
    const current = UUID.test(id) ? store.get(id) : undefined;
    const gone = departingOf(ctx);
    if (gone) throw invalid(`id: ${removedError(gone)}`);
    if (!current) throw invalid(`id: program '${ctx.params.id}' not found${uuidHint(id)}`);
    deps.gitops?.refuseDrift(current, 'change');
    const { value, locate } = await readJson(ctx, maxBody);
    const record = await store.update(id, (current) => validateUpdate(value, current, ctxFor(locate)));
    ctx.body = programDetail(record, observed.get(record.id), clock.now(), boot);
  });

  router.delete('/programs/:id', async (ctx) => {
    refuseBatchPath(ctx);
    const force = booleanParam(ctx.query.force, 'force', false);
    // Removed already, its process still stopping: wait for it again, or force it.
    const gone = departingOf(ctx);
    if (gone) {
      ctx.body = await actions.endDeparting(gone, force);
      return;
    }
    const record = find(ctx);
    deps.gitops?.refuseDrift(record, 'remove');
    const [outcome] = await actions.remove([record], force);
    ctx.body = outcome;
  });

  router.post('/programs/:id/start', async (ctx) => {
    ctx.body = (await actions.start([find(ctx)]))[0];
  });

  router.post('/programs/:id/stop', async (ctx) => {
    const force = booleanParam(ctx.query.force, 'force', false);
    ctx.body = (await actions.stop([find(ctx)], force))[0];
  });

  router.post('/programs/:id/restart', async (ctx) => {
    ctx.body = (await actions.restart([find(ctx)]))[0];
  });

  // docs/reload.md: 200 with ok false (and the reason) when the new process never became Healthy.
  router.post('/programs/:id/reload', async (ctx) => {
    ctx.body = (await actions.reload([find(ctx)]))[0];
  });

  router.post('/programs/:id/signal', async (ctx) => {
    const record = find(ctx);
    const { value } = await readJson(ctx, maxBody);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      for (const key of Object.keys(value)) if (key !== 'signal') throw invalid(`${key}: unknown field (the body is {signal})`);
    }
    const [outcome] = actions.signal([record], (value as { signal?: unknown } | null)?.signal);
    if (!outcome?.ok) throw new SvcError('SVC_CONFLICT', outcome?.error ?? 'not running');
    ctx.body = outcome;
  });

  router.get('/programs/:id/logs', async (ctx) => {
    // A removed program's logs stay readable while its process stops (its last words).
    const record = departingOf(ctx)?.record ?? find(ctx);
    const tail = integerParam(ctx.query.tail, 'tail', { min: 0, max: 5000 }) ?? 200;
    const source = textParam(ctx.query.source, 'source') ?? 'both';
    if (!['stdout', 'stderr', 'both'].includes(source)) throw invalid(`source: must be stdout, stderr or both, got '${source}'`);
    const paths = logPaths(record.id, record.config, config.storage.log_dir);
    const logs: LogLine[] = [];
    for (const from of ['stdout', 'stderr'] as const) {
      if (source !== 'both' && source !== from) continue;
      if (source === 'both' && from === 'stderr' && paths.stderr === paths.stdout) continue; // one file, read once (as the stream sends it)
      const lines = await tailLines(paths[from], tail).catch((err: unknown) => {
        throw logFileError(from, paths[from], 'read', err);
      });
      for (const content of lines) logs.push({ source: from, content });
    }
    const secrets = seesSecrets(ctx) ? [] : secretValues(record.config);
    ctx.body = { id: record.id, logs: secrets.length === 0 ? logs : logs.map((l) => ({ ...l, content: maskSecrets(l.content, secrets) })) } satisfies LogsResult;
  });

  return router;
}

function prefixFor(body: unknown, i: number): string {
  const name = (body as { name?: unknown } | null)?.name;
  return `[${i}]${typeof name === 'string' ? ` (name=${name})` : ''}`;
}
