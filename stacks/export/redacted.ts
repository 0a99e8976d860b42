import type { ProgramConfig } from '../../state/program.js';
import { REDACTED } from '../../state/redact-url.js';

/**
 * The fields svcd served redacted (`[redacted]`: the caller's role does not see secrets,
 * docs/security.md), per program: `web: env`, `api: health_check.url`. An export of them would
 * write the marker in place of the values: a stack that re-applied it would overwrite the real
 * values, and units or jobs would run with it.
 */
export function redactedFields(configs: ProgramConfig[]): string[] {
  const out: string[] = [];
  for (const c of configs) {
    const fields: string[] = [];
    if (Object.values(c.env ?? {}).includes(REDACTED)) fields.push('env');
    if (c.health_check?.url?.includes(REDACTED)) fields.push('health_check.url');
    if (c.artifact?.source?.includes(REDACTED)) fields.push('artifact.source');
    if (fields.length > 0) out.push(`${c.name}: ${fields.join(', ')}`);
  }
  return out;
}
