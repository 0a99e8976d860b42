/** `GET /api/v1/system/storage` (docs/operations.md): the two stores' health, as served. */
const health = {
  writable: { type: 'boolean' },
  problem: { type: ['string', 'null'], description: 'Why writes are refused, e.g. "no space left on the data disk (...)"' },
  since: { type: ['integer', 'null'], description: 'Unix milliseconds of the failed write that started the refusal' },
  recovered_at_open: { type: ['string', 'null'], description: 'Damage found when the store was opened, what was dropped, where a copy is kept' },
} as const;

export const storageSchema = {
  type: 'object',
  required: ['state', 'events'],
  properties: {
    state: {
      type: 'object',
      properties: {
        ...health,
        pending_intents: { type: 'integer', description: 'Stop requests applied in memory, written when the store can write again' },
        quarantined: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              id: { type: 'string' },
              name: { type: ['string', 'null'] },
              reason: { type: 'string' },
              raw: { type: 'string', description: 'The stored record, unchanged' },
              at: { type: 'integer', description: 'Unix milliseconds' },
              moved: { type: 'boolean', description: 'False while it still sits among the programs on disk' },
            },
          },
        },
      },
    },
    events: {
      type: 'object',
      properties: {
        ...health,
        queued: { type: 'integer', description: 'Events waiting in memory for the history to take writes' },
        malformed_records: { type: 'integer', description: 'Stored records that queries skip because they are not event records' },
      },
    },
  },
} as const;
