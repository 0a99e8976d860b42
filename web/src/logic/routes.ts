/**
 * The dashboard's pages, addressed by the URL fragment (`#/programs/<id>/logs`) so that the
 * daemon serves only `/` and `/assets`, and a reload or a shared link opens the same page.
 */
export const PROGRAM_TABS = ['overview', 'logs', 'events', 'config'] as const;
export type ProgramTab = (typeof PROGRAM_TABS)[number];

export type Route =
  | { page: 'programs' }
  | { page: 'program'; id: string; tab: ProgramTab }
  | { page: 'events' }
  | { page: 'stack' }
  | { page: 'system' }
  | { page: 'extension'; panel: string };

/** A part of the fragment decoded; a malformed escape (`%E0%A4%A`, a mistyped link) stays as typed. */
function decodePart(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#?\/?/, '').split('/').filter(Boolean).map(decodePart);
  switch (parts[0]) {
    case 'programs':
      if (parts[1]) return { page: 'program', id: parts[1], tab: (PROGRAM_TABS as readonly string[]).includes(parts[2] ?? '') ? (parts[2] as ProgramTab) : 'overview' };
      return { page: 'programs' };
    case 'events':
      return { page: 'events' };
    case 'stack':
      return { page: 'stack' };
    case 'system':
      return { page: 'system' };
    case 'x':
      return parts[1] ? { page: 'extension', panel: parts[1] } : { page: 'programs' };
    default:
      return { page: 'programs' };
  }
}

export function routeHash(r: Route): string {
  switch (r.page) {
    case 'programs':
      return '#/programs';
    case 'program':
      return `#/programs/${encodeURIComponent(r.id)}${r.tab === 'overview' ? '' : `/${r.tab}`}`;
    case 'extension':
      return `#/x/${encodeURIComponent(r.panel)}`;
    default:
      return `#/${r.page}`;
  }
}
