import Router from '@koa/router';
import { invalid, SvcError } from '../../state/errors.js';
import type { ReactionsPort, TestEventInput } from '../../state/reactions-view.js';
import type { ProgramStore } from '../../state/store.js';
import { parseJsonDocument } from '../../state/schema/json-body.js';
import { readText } from '../body.js';

/**
 * Event reactions (docs/reactions.md): the set in force with each one's last run and the load
 * error of the last edit; a test run with a synthetic event, answered when the run has ended.
 */
export function reactionsRouter(port: ReactionsPort | undefined, store: Pick<ProgramStore, 'resolve'>, maxBodyBytes: number): Router {
  const router = new Router();
  const reactions = (): ReactionsPort => {
    if (!port) throw new SvcError('SVC_UNAVAILABLE', 'event reactions are not running in this daemon');
    return port;
  };
  router.get('/system/reactions', (ctx) => {
    ctx.body = reactions().status();
  });
  router.post('/system/reactions/:name/test', async (ctx) => {
    // An empty body is allowed: the synthetic event then comes from the reaction's own keys.
    const text = await readText(ctx, maxBodyBytes);
    const body = text.trim() === '' ? undefined : parseJsonDocument(text).value;
    ctx.body = await reactions().test(ctx.params.name ?? '', testInput(body, store));
  });
  return router;
}

/** `{event?, program?}`: program is a name or an id of an existing program. */
function testInput(body: unknown, store: Pick<ProgramStore, 'resolve'>): TestEventInput {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw invalid('body: must be a JSON object {"event"?: string, "program"?: string}');
  const { event, program, ...rest } = body as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) throw invalid(`${unknown[0]}: unknown field (event, program)`);
  if (event !== undefined && typeof event !== 'string') throw invalid('event: must be a string');
  if (program === undefined) return { event };
  if (typeof program !== 'string' || program === '') throw invalid('program: must be a program name or id');
  const record = store.resolve(program);
  if (!record) throw invalid(`program: no program named '${program}'`);
  return { event, program_id: record.id, program_name: record.config.name };
}
