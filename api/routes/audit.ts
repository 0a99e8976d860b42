import Router from '@koa/router';
import type { AuditLog } from '../../plugins/security/audit/audit-log.js';
import { filterAudit, parseAuditQuery } from '../../plugins/security/audit/query.js';

/** The security plugin's audit log (admin): records with filters, and a verification. */
export function auditRouter(audit: AuditLog): Router {
  const router = new Router();
  router.get('/audit', async (ctx) => {
    const query = parseAuditQuery(ctx.query);
    ctx.body = filterAudit(await audit.records(), query);
  });
  router.get('/audit/verify', async (ctx) => {
    ctx.body = { file: audit.file, ...(await audit.verify()) };
  });
  return router;
}
