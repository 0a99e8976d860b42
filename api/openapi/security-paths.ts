/**
 * OpenAPI paths of authentication, Access Tokens, the audit log and license info. The auth
 * routes exist only with auth_secret or the security plugin, token and audit routes only with
 * the plugin (404 otherwise); each needs the permission named in api/route-table.ts.
 */
type Json = Record<string, unknown>;

const err = { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
const ok = (schema: Json, description = 'OK') => ({ description, content: { 'application/json': { schema } } });
const route = (summary: string, tag: string, responses: Json, extra: Json = {}) => ({ summary, tags: [tag], ...extra, responses: { ...responses, 401: err, 403: err } });
const tokenId = { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^tok_[0-9a-f]{12}$' } };
const token = {
  type: 'object',
  required: ['id', 'name', 'role', 'created_at', 'created_by'],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    role: { enum: ['viewer', 'operator', 'admin'] },
    created_at: { type: 'integer', description: 'Unix seconds' },
    created_by: { type: 'string', description: 'Token id, or `secret`' },
    renewed_at: { type: 'integer', description: 'Unix seconds' },
  },
};
const issued = { allOf: [token, { type: 'object', required: ['secret'], properties: { secret: { type: 'string', pattern: '^sk-' }, message: { type: 'string' } } }] };
const q = (name: string, schema: Json, description: string) => ({ name, in: 'query', schema, description });

export function securityPaths(): Json {
  return {
    '/api/v1/auth/login': { post: route('Check a Bearer credential (admin secret or token)', 'auth', { 200: ok({ type: 'object' }) }) },
    '/api/v1/auth/logout': { post: route('Nothing to end on the server: clients forget the credential', 'auth', { 200: ok({ type: 'object' }) }) },
    '/api/v1/auth/status': { get: { summary: 'Auth mode and whether the Bearer sent is valid (exempt from auth)', tags: ['auth'], security: [], responses: { 200: ok({ type: 'object' }), 404: err } } },
    '/api/v1/auth/secret/disable': { post: route('Refuse the admin secret from now on (admin; an admin token must exist)', 'auth', { 200: ok({ type: 'object', properties: { secret_disabled: { const: true }, changed: { type: 'boolean' } } }), 409: err }) },
    '/api/v1/auth/tokens': {
      get: route('Access Tokens: all for admins, only their own for others; never secrets', 'auth', { 200: ok({ type: 'array', items: token }) }),
      post: route('Create a token (admin); the secret is in this response only', 'auth', { 201: ok(issued, 'Created'), 400: err, 409: err }, {
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['name', 'role'], additionalProperties: false, properties: { name: { type: 'string' }, role: { enum: ['viewer', 'operator', 'admin'] } } } } } },
      }),
    },
    '/api/v1/auth/tokens/{id}/renew': { post: route('New secret for a token (non-admins: their own); the old secret stops working', 'auth', { 200: ok(issued), 404: err }, { parameters: [tokenId] }) },
    '/api/v1/auth/tokens/{id}': { delete: route('Revoke a token (admin); the last admin token re-enables a disabled secret', 'auth', { 200: ok({ type: 'object', properties: { id: { type: 'string' }, revoked: { const: true }, secret_reenabled: { type: 'boolean' } } }), 404: err }, { parameters: [tokenId] }) },
    '/api/v1/audit': {
      get: route('Audit records of state-changing requests (admin)', 'auth', { 200: ok({ type: 'array', items: { type: 'object' } }), 400: err }, {
        parameters: [
          q('from', { type: 'integer' }, 'Unix seconds, inclusive'),
          q('to', { type: 'integer' }, 'Unix seconds, inclusive'),
          q('actor', { type: 'string' }, 'Token id, or secret, anonymous, svcd'),
          q('role', { enum: ['viewer', 'operator', 'admin'] }, 'Role of the actor'),
          q('method', { type: 'string' }, 'HTTP method'),
          q('path', { type: 'string' }, 'Path prefix'),
          q('status', { type: 'integer' }, 'HTTP status answered'),
          q('limit', { type: 'integer', minimum: 1, maximum: 1000, default: 100 }, 'Page size'),
          q('offset', { type: 'integer', minimum: 0, default: 0 }, 'Records to skip'),
          q('order', { enum: ['asc', 'desc'], default: 'asc' }, 'By record number'),
        ],
      }),
    },
    '/api/v1/audit/verify': { get: route('Verify the chain of digests and the head of the audit log (admin)', 'auth', { 200: ok({ type: 'object', required: ['ok', 'records'], properties: { ok: { type: 'boolean' }, records: { type: 'integer' }, problem: { type: 'string' }, notes: { type: 'array', items: { type: 'string' } } } }) }) },
    '/api/v1/system/license': {
      get: route('License info (404 without a valid license)', 'system', {
        200: ok({
          type: 'object',
          required: ['issued_to', 'issued_at', 'major_version', 'grants', 'license_id', 'features', 'plugin_versions'],
          properties: {
            issued_to: { type: 'string' },
            issued_at: { type: 'integer' },
            major_version: { type: 'integer' },
            grants: { type: 'array', items: { type: 'string' } },
            expires_at: { type: 'integer', description: 'Absent when perpetual' },
            license_id: { type: 'string', format: 'uuid' },
            features: { type: 'array', items: { type: 'string' } },
            plugin_versions: { type: 'object', additionalProperties: { type: 'string' } },
            min_version: { type: 'string' },
            max_version: { type: 'string' },
            expired: { type: 'boolean', description: 'expires_at has passed: at start (grants retained by retain_grants_after_expiry), or since, while svcd runs on the plugins it loaded' },
          },
        }),
        404: err,
      }),
    },
    '/api/v1/system/ui': {
      get: route('The web dashboard\'s extension panels the license unlocks (only while ui.so is loaded; docs/web.md)', 'system', {
        200: ok({
          type: 'object',
          properties: {
            plugin_version: { type: 'string' },
            features: { type: 'array', items: { type: 'string' } },
            panels: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' }, title: { type: 'string' }, min_role: { enum: ['viewer', 'operator', 'admin'] }, feature: { type: 'string' } } } },
          },
        }),
        404: err,
      }),
    },
    '/api/v1/system/plugins': { get: route('Plugin libraries loaded, and those found but not loaded', 'system', { 200: ok({ type: 'object', properties: { mode: { enum: ['open', 'secret', 'licensed'] }, loaded: { type: 'array' }, skipped: { type: 'array' } } }) }) },
  };
}
