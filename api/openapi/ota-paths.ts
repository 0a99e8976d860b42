import { OTA_PHASES, OTA_RESULTS } from '../../state/ota.js';

type Json = Record<string, unknown>;

const sha = { type: ['string', 'null'], pattern: '^[0-9a-f]{64}$' };
const ms = { type: ['integer', 'null'], description: 'Unix milliseconds' };
const idParam = { name: 'id', in: 'path', required: true, description: 'Program UUID (never the name)', schema: { type: 'string', format: 'uuid' } };
const body = (schema: Json, description = 'OK') => ({ description, content: { 'application/json': { schema } } });
const error = (description: string) => body({ $ref: '#/components/schemas/Error' }, description);

/** The `ota` condition of a program (docs/ota.md, "Status"). */
export const otaViewSchema: Json = {
  type: 'object',
  properties: {
    phase: { enum: [...OTA_PHASES] },
    installed: sha,
    target: sha,
    backup: sha,
    attempts: { type: 'integer' },
    next_attempt_at: ms,
    rejected: sha,
    restart_pending: { type: 'boolean' },
    swapped_at: ms,
    deadline: ms,
    last: { type: ['object', 'null'], properties: { result: { enum: [...OTA_RESULTS] }, reason: { type: 'string' }, at: { type: 'integer' }, checksum: sha } },
    rollback_seq: { type: 'integer' },
    download: {
      type: ['object', 'null'],
      description: 'While downloading: bytes received so far and the announced size (Content-Length; null without one), published at most once a second',
      properties: { received_bytes: { type: 'integer' }, total_bytes: { type: ['integer', 'null'] } },
    },
  },
};

const status = { type: 'object', properties: { id: { type: 'string', format: 'uuid' }, name: { type: 'string' }, artifact: { type: ['object', 'null'] }, ota: { oneOf: [{ $ref: '#/components/schemas/OtaView' }, { type: 'null' }] } } };

/** OTA routes of the OpenAPI document. */
export const otaPaths: Json = {
  '/api/v1/ota': { get: { summary: 'OTA status of every program with an artifact', tags: ['programs'], responses: { 200: body({ type: 'array', items: status }), 401: error('Authentication required (auth_secret is set)') } } },
  '/api/v1/programs/{id}/ota': {
    get: { summary: 'OTA status of a program', tags: ['programs'], parameters: [idParam], responses: { 200: body(status), 401: error('Authentication required (auth_secret is set)'), 404: error('Unknown program') } },
  },
  '/api/v1/programs/{id}/ota/rollback': {
    post: {
      summary: 'Restore the backup of the previous binary (an intent the OTA controller acts on; waits up to 30 s)',
      tags: ['programs'],
      parameters: [idParam],
      responses: {
        200: body({ type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' }, ok: { type: 'boolean' }, ota: status.properties.ota, error: { type: 'string' } } }),
        400: error('The program has no artifact'),
        401: error('Authentication required (auth_secret is set)'),
        404: error('Unknown program'),
        409: error('Nothing to roll back to'),
      },
    },
  },
};
