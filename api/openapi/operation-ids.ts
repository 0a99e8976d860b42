type Json = Record<string, unknown>;

/**
 * The operationId of every operation in the document: the names a generated client gives its
 * methods, so they are chosen, not derived, and never change once published. `withOperationIds`
 * throws for an operation missing here, so a new route cannot reach the document without one.
 */
export const OPERATION_IDS: Readonly<Record<string, string>> = {
  'GET /health': 'getHealth',
  'GET /api/v1/programs': 'listPrograms',
  'POST /api/v1/programs': 'createPrograms',
  'POST /api/v1/programs/batch': 'batchPrograms',
  'GET /api/v1/programs/{id}': 'getProgram',
  'PUT /api/v1/programs/{id}': 'updateProgram',
  'DELETE /api/v1/programs/{id}': 'removeProgram',
  'POST /api/v1/programs/{id}/start': 'startProgram',
  'POST /api/v1/programs/{id}/stop': 'stopProgram',
  'POST /api/v1/programs/{id}/restart': 'restartProgram',
  'POST /api/v1/programs/{id}/reload': 'reloadProgram',
  'POST /api/v1/programs/{id}/signal': 'signalProgram',
  'GET /api/v1/programs/{id}/logs': 'getProgramLogs',
  'POST /api/v1/programs/{id}/logs/flush': 'flushProgramLogs',
  'GET /api/v1/programs/{id}/events': 'listProgramEvents',
  'GET /api/v1/ota': 'listOta',
  'GET /api/v1/programs/{id}/ota': 'getProgramOta',
  'POST /api/v1/programs/{id}/ota/rollback': 'rollbackProgramOta',
  'GET /api/v1/events': 'listEvents',
  'GET /api/v1/events/stats': 'getEventStats',
  'GET /api/v1/stack': 'exportStack',
  'PUT /api/v1/stack': 'applyStack',
  'GET /api/v1/stack/status': 'getStackStatus',
  'POST /api/v1/stack/sync': 'syncStack',
  'GET /api/v1/stack/diff': 'diffStack',
  'GET /api/v1/system/reactions': 'listReactions',
  'POST /api/v1/system/reactions/{name}/test': 'testReaction',
  'POST /api/v1/system/shutdown': 'shutdownDaemon',
  'GET /api/v1/system/stats': 'getSystemStats',
  'GET /api/v1/system/storage': 'getStorage',
  'DELETE /api/v1/system/storage/quarantine/{id}': 'discardQuarantined',
  'POST /api/v1/system/storage/quarantine/{id}/restore': 'restoreQuarantined',
  'GET /api/v1/system/license': 'getLicense',
  'GET /api/v1/system/plugins': 'listPlugins',
  'GET /api/v1/system/ui': 'listUiPanels',
  'GET /api/v1/system/notify': 'getNotify',
  'PUT /api/v1/system/notify': 'updateNotify',
  'POST /api/v1/system/notify/test': 'testNotify',
  'GET /metrics': 'getMetrics',
  'GET /ws': 'streamLogs',
  'GET /api/v1/watch': 'watchPrograms',
  'GET /api/v1/openapi.json': 'getOpenApi',
  'POST /api/v1/auth/login': 'login',
  'POST /api/v1/auth/logout': 'logout',
  'GET /api/v1/auth/status': 'getAuthStatus',
  'POST /api/v1/auth/secret/disable': 'disableSecret',
  'GET /api/v1/auth/tokens': 'listTokens',
  'POST /api/v1/auth/tokens': 'createToken',
  'POST /api/v1/auth/tokens/{id}/renew': 'renewToken',
  'DELETE /api/v1/auth/tokens/{id}': 'revokeToken',
  'GET /api/v1/audit': 'listAudit',
  'GET /api/v1/audit/verify': 'verifyAudit',
  'GET /': 'getDashboard',
  'GET /assets/{name}': 'getDashboardAsset',
  'GET /api/docs': 'getApiDocs',
};

/** The paths with each operation's operationId set (a new object; the input is not changed). */
export function withOperationIds(paths: Record<string, Json>): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [path, item] of Object.entries(paths)) {
    out[path] = Object.fromEntries(
      Object.entries(item).map(([method, operation]) => {
        const id = OPERATION_IDS[`${method.toUpperCase()} ${path}`];
        if (!id) throw new TypeError(`openapi: no operationId for ${method.toUpperCase()} ${path} (api/openapi/operation-ids.ts)`);
        return [method, { operationId: id, ...(operation as Json) }];
      }),
    );
  }
  return out;
}
