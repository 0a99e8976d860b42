import { createContext, useContext } from 'react';
import type { Http } from '../api/http.js';
import type { ProgramFeed } from '../api/program-feed.js';
import type { UsageHistory } from '../logic/usage-history.js';
import type { Role } from '../logic/panels.js';

/** What every page needs: the daemon client, the live list, the session's role and panels. */
export interface Services {
  http: Http;
  feed: ProgramFeed;
  history: UsageHistory;
  /** The session's Bearer string (null in open mode), offered by the log WebSocket (api/log-follow.ts). */
  token: () => string | null;
  /** null in open mode (no auth: every action allowed). */
  role: Role | null;
  panels: readonly { id: string; title: string }[];
}

export const ServicesContext = createContext<Services | null>(null);

export function useServices(): Services {
  const s = useContext(ServicesContext);
  if (!s) throw new TypeError('useServices outside ServicesContext');
  return s;
}
