/** The reload part of a program's state (state/reload.ts, docs/reload.md), for the OpenAPI document. */
export const reloadSchemas = {
  ReloadView: {
    type: 'object',
    description: 'The second process while a reload runs',
    required: ['phase', 'pid', 'started_at', 'deadline', 'timeout_ms'],
    properties: {
      phase: { enum: ['successor', 'retiring', 'aborting'], description: 'successor: the new process, waiting for Healthy; retiring: the old process, stopping after the hand-over; aborting: a failed new process, stopping' },
      pid: { type: 'integer' },
      started_at: { type: 'integer', description: 'Unix milliseconds' },
      deadline: { type: 'integer', description: 'Unix milliseconds: Healthy by then (successor), or SIGKILL then (retiring, aborting)' },
      timeout_ms: { type: 'integer', description: 'The whole bound of the successor phase' },
    },
  },
  ReloadOutcome: {
    type: 'object',
    description: 'How the last reload request ended',
    required: ['seq', 'result', 'msg', 'at'],
    properties: {
      seq: { type: 'integer' },
      result: { enum: ['reloaded', 'failed', 'restarted', 'started'], description: 'restarted: no health check, a plain restart; started: nothing was running' },
      msg: { type: 'string' },
      at: { type: 'integer', description: 'Unix milliseconds' },
    },
  },
};
