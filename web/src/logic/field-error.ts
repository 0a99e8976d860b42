/**
 * Where a daemon validation message belongs in a form. Messages name the field (spec, Errors:
 * `program 'web': command: ...`, `health_check.url: ...`, `services[2] (name=web): cron: ...`);
 * the first path segment is the form field. Null when the message names no known field.
 */
export function fieldOfMessage(message: string, fields: readonly string[]): string | null {
  const rest = message
    .replace(/^program '[^']*':\s*/, '')
    .replace(/^services\[\d+\](?: \(name=[^)]*\))?:\s*/, '')
    .replace(/^\[\d+\](?: \(name=[^)]*\))?:\s*/, '');
  const m = /^([A-Za-z_][A-Za-z0-9_]*)(?:[.[][^:]*)?:/.exec(rest);
  const field = m?.[1];
  return field && fields.includes(field) ? field : null;
}
