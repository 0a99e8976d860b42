import { AUDIT_QUERY_PARAMS } from '../plugins/security/audit/query.js';
import type { Permission } from '../state/auth/roles.js';
import { EVENT_FILTER_PARAMS } from './event-params.js';

/**
 * The permission of every route, HTTP and WebSocket (`WS`), in one table beside the routers
 * (api/app.ts). The one auth middleware (api/auth/middleware.ts) looks requests up here before
 * any router runs; a test checks that every registered route has an entry, so a new route
 * without one fails the build. Paths use the routers' `:param` syntax. Token, secret and audit
 * routes exist only with the security plugin; the entries stay so the table is the whole API.
 */
export const ROUTE_PERMISSIONS: Readonly<Record<string, Permission>> = {
  'GET /health': 'public',
  'GET /api/docs': 'public',
  'GET /api/docs/init.js': 'public',
  'GET /api/docs/:file': 'public',
  'GET /api/v1/openapi.json': 'public',
  'GET /api/v1/auth/status': 'public',
  // The web dashboard's page and bundle (spec: exempt from auth; it prompts for the Bearer).
  'GET /': 'public',
  'GET /assets/:name': 'public',
  'POST /api/v1/auth/login': 'session',
  'POST /api/v1/auth/logout': 'session',

  'GET /metrics': 'read',
  'GET /api/v1/programs': 'read',
  'GET /api/v1/programs/:id': 'read',
  'GET /api/v1/programs/:id/logs': 'read',
  'GET /api/v1/programs/:id/events': 'read',
  'GET /api/v1/events': 'read',
  'GET /api/v1/events/stats': 'read',
  'GET /api/v1/stack': 'read',
  'GET /api/v1/stack/status': 'read',
  'GET /api/v1/stack/diff': 'read',
  'GET /api/v1/system/stats': 'read',
  // The stored text of quarantined records is shown only to roles that see secrets (api/routes/storage.ts).
  'GET /api/v1/system/storage': 'read',
  'GET /api/v1/system/license': 'read',
  'GET /api/v1/system/plugins': 'read',
  'GET /api/v1/system/reactions': 'read',
  'GET /api/v1/ota': 'read',
  'GET /api/v1/programs/:id/ota': 'read',
  'GET /api/v1/watch': 'read',
  // Notify plugin (404 without it); webhook URLs and header values redacted below admin (api/routes/notify.ts).
  'GET /api/v1/system/notify': 'read',
  'GET /api/v1/system/ui': 'read',
  'WS /ws': 'read',

  'POST /api/v1/programs': 'program.create',
  'POST /api/v1/programs/:id/start': 'program.control',
  'POST /api/v1/programs/:id/stop': 'program.control',
  'POST /api/v1/programs/:id/restart': 'program.control',
  // A restart without downtime (docs/reload.md): the same permission as restart.
  'POST /api/v1/programs/:id/reload': 'program.control',
  'POST /api/v1/programs/:id/signal': 'program.control',
  // Emptying the log files is an operator action, like a restart (svc flush).
  'POST /api/v1/programs/:id/logs/flush': 'program.control',
  // Back to the previous binary: an incident action, like a restart (docs/ota.md).
  'POST /api/v1/programs/:id/ota/rollback': 'program.control',
  // A batch Remove also needs program.remove: checked by the route once the body is read.
  'POST /api/v1/programs/batch': 'program.control',
  // Runs a local script now (docs/reactions.md): an operator's incident tool, like a restart.
  'POST /api/v1/system/reactions/:name/test': 'reaction.test',
  'PUT /api/v1/programs/:id': 'program.update',
  'DELETE /api/v1/programs/:id': 'program.remove',
  'DELETE /api/v1/system/storage/quarantine/:id': 'program.remove',
  // Brings a program back (stopped): a create, as far as permissions go.
  'POST /api/v1/system/storage/quarantine/:id/restore': 'program.create',
  'PUT /api/v1/stack': 'stack.apply',
  // Applies only what the repository holds (or an older commit of it, an incident pin): an operation, like a restart.
  'POST /api/v1/stack/sync': 'program.control',
  'PUT /api/v1/system/notify': 'notify.manage',
  'POST /api/v1/system/notify/test': 'notify.manage',
  'POST /api/v1/system/shutdown': 'system.shutdown',

  // Non-admins see and renew only their own token: the routes narrow what token.self allows.
  'GET /api/v1/auth/tokens': 'token.self',
  'POST /api/v1/auth/tokens/:id/renew': 'token.self',
  'POST /api/v1/auth/tokens': 'token.manage',
  'DELETE /api/v1/auth/tokens/:id': 'token.manage',
  'POST /api/v1/auth/secret/disable': 'secret.disable',
  'GET /api/v1/audit': 'audit.read',
  'GET /api/v1/audit/verify': 'audit.read',
};

/**
 * The query parameters of each /api/v1 route that reads any; every other route reads none. Any
 * other parameter is a 400 naming it (api/query-check.ts), so a misspelt `?lines=50` is not
 * silently ignored. A test holds this table equal to the OpenAPI document.
 */
export const ROUTE_QUERY: Readonly<Record<string, readonly string[]>> = {
  'POST /api/v1/programs/:id/stop': ['force'],
  'DELETE /api/v1/programs/:id': ['force'],
  'GET /api/v1/programs/:id/logs': ['tail', 'source'],
  // program_id may repeat the path's id (a different one is refused by the route).
  'GET /api/v1/programs/:id/events': ['program_id', ...EVENT_FILTER_PARAMS],
  'GET /api/v1/events': ['program_id', ...EVENT_FILTER_PARAMS],
  'GET /api/v1/events/stats': ['program_id'],
  'PUT /api/v1/stack': ['source', 'prune', 'dry_run', 'include', 'plan', 'wait', 'wait_stable'],
  'POST /api/v1/stack/sync': ['source', 'to', 'unpin'],
  'GET /api/v1/stack/diff': ['source'],
  'GET /api/v1/audit': AUDIT_QUERY_PARAMS,
};

interface Entry {
  route: string;
  method: string;
  segments: string[];
  literals: number;
  permission: Permission;
}

function compile(table: Readonly<Record<string, Permission>>): Entry[] {
  return Object.entries(table)
    .map(([route, permission]) => {
      const [method = '', path = ''] = route.split(' ');
      const segments = split(path);
      return { route, method, segments, literals: segments.filter((s) => !s.startsWith(':')).length, permission };
    })
    .sort((a, b) => b.literals - a.literals); // `/programs/batch` before `/programs/:id`
}

// The routers match paths case-insensitively and ignore a trailing slash, and so must this.
function split(path: string): string[] {
  return path.toLowerCase().split('/').filter((s, i, all) => s !== '' || (i > 0 && i < all.length - 1));
}

const COMPILED = compile(ROUTE_PERMISSIONS);

/**
 * The permission of a request: `method` is the HTTP method (HEAD counts as GET) or `WS` for a
 * WebSocket upgrade. A request that matches no entry is `unlisted` (admin only), so a route
 * added without an entry fails closed.
 */
export function permissionFor(method: string, path: string, entries: Entry[] = COMPILED): Permission {
  return entryOf(method, path, entries)?.permission ?? 'unlisted';
}

/** The table's key of a request (`GET /api/v1/programs/:id`), or undefined when no route matches. */
export function routeOf(method: string, path: string): string | undefined {
  return entryOf(method, path, COMPILED)?.route;
}

function entryOf(method: string, path: string, entries: Entry[]): Entry | undefined {
  const m = method === 'HEAD' ? 'GET' : method;
  const segments = split(path);
  return entries.find((e) => e.method === m && e.segments.length === segments.length && e.segments.every((s, i) => s.startsWith(':') ? (segments[i] ?? '') !== '' : s === segments[i]));
}
