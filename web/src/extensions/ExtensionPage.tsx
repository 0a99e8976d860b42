import type { ComponentType } from 'react';
import { useServices } from '../app/context.js';
import { AuditPanel } from './AuditPanel.js';
import { NotifyPanel } from './NotifyPanel.js';
import { TokensPanel } from './TokensPanel.js';

/** Panel id (as listed by `GET /api/v1/system/ui`) to its component; see logic/panels.ts. */
const PANELS: Record<string, ComponentType> = { tokens: TokensPanel, audit: AuditPanel, notify: NotifyPanel };

/** An extension panel, only when the daemon lists it for this session (else its routes are never called). */
export function ExtensionPage({ panel }: { panel: string }) {
  const { panels } = useServices();
  const info = panels.find((p) => p.id === panel);
  const Panel = info ? PANELS[panel] : undefined;
  return (
    <section className="page" aria-labelledby="ext-title">
      <h1 id="ext-title">{info?.title ?? 'Not available'}</h1>
      {Panel ? <Panel /> : <p>This panel needs the ui plugin (and a license that grants it) and a role that may open it.</p>}
    </section>
  );
}
