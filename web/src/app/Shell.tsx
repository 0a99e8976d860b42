import { useEffect, useRef, useState } from 'react';
import { ExtensionPage } from '../extensions/ExtensionPage.js';
import { globalCommand, isTyping } from '../logic/keys.js';
import type { Role } from '../logic/panels.js';
import { EventsPage } from '../pages/EventsPage.js';
import { ProgramPage } from '../pages/ProgramPage.js';
import { ProgramsPage } from '../pages/ProgramsPage.js';
import { StackPage } from '../pages/StackPage.js';
import { SystemPage } from '../pages/SystemPage.js';
import { StackBanner } from '../components/StackBanner.js';
import { useServices } from './context.js';
import { HelpDialog } from './HelpDialog.js';
import { useFeed, useRoute } from './hooks.js';

const NAV: { page: 'programs' | 'events' | 'stack' | 'system'; title: string }[] = [
  { page: 'programs', title: 'Programs' },
  { page: 'events', title: 'Events' },
  { page: 'stack', title: 'Stack' },
  { page: 'system', title: 'System' },
];

/** The page frame: navigation, link state, role, keyboard, and the page the URL names. */
export function Shell(props: { role: Role | null; authRequired: boolean; onSignOut: () => void }) {
  const route = useRoute();
  const [help, setHelp] = useState(false);
  const services = useServices();
  const feedState = useFeed(services.feed);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target as HTMLElement) || document.querySelector('dialog[open]')) return;
      if (e.key === '/' && route.page === 'programs') {
        e.preventDefault();
        document.querySelector<HTMLInputElement>('.filter')?.focus();
        return;
      }
      const cmd = globalCommand(e.key);
      if (!cmd) return;
      e.preventDefault();
      if (cmd.kind === 'help') setHelp(true);
      else if (cmd.kind === 'page') location.hash = `#/${cmd.to}`;
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [route.page, setHelp]);
  const current = route.page === 'program' ? 'programs' : route.page === 'extension' ? `x/${route.panel}` : route.page;
  usePageFocus(route.page === 'program' ? `program/${route.id}` : current);
  return (
    <>
      <a className="skip" href="#main" onClick={(e) => (e.preventDefault(), document.getElementById('main')?.focus())}>
        Skip to content
      </a>
      <header className="top">
        <a className="brand" href="#/programs">
          svc
        </a>
        <nav aria-label="Pages">
          {NAV.map((n) => (
            <a key={n.page} href={`#/${n.page}`} aria-current={current === n.page ? 'page' : undefined}>
              {n.title}
            </a>
          ))}
          {services.panels.map((p) => (
            <a key={p.id} href={`#/x/${p.id}`} className="ext" aria-current={current === `x/${p.id}` ? 'page' : undefined}>
              {p.title}
            </a>
          ))}
        </nav>
        <span className={`conn ${feedState.error ? 'down' : 'up'}`} title={feedState.error ?? 'connected'} role="status">
          {feedState.error ? 'disconnected, retrying' : 'live'}
        </span>
        <button type="button" className="link" onClick={() => setHelp(true)} aria-label="Keyboard help">
          ?
        </button>
        {props.authRequired && (
          <span className="who">
            <span className="badge role" title="The role this credential has">
              {props.role}
            </span>
            <button type="button" className="link" onClick={props.onSignOut}>
              Sign out
            </button>
          </span>
        )}
      </header>
      <StackBanner />
      <main id="main" tabIndex={-1}>
        {route.page === 'programs' && <ProgramsPage />}
        {route.page === 'program' && <ProgramPage key={route.id} id={route.id} tab={route.tab} />}
        {route.page === 'events' && <EventsPage />}
        {route.page === 'stack' && <StackPage />}
        {route.page === 'system' && <SystemPage />}
        {route.page === 'extension' && <ExtensionPage panel={route.panel} />}
      </main>
      {help && <HelpDialog onClose={() => setHelp(false)} />}
    </>
  );
}

/**
 * A page change moves the focus into the new page, so that a screen reader announces it and the
 * keys reach the page instead of the body: the program table on Programs (where its keys work,
 * once it has loaded), the page's heading elsewhere. The first page of a visit is left alone.
 */
function usePageFocus(page: string): void {
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    let tries = 0;
    let timer = 0;
    const focus = () => {
      const table = document.querySelector<HTMLElement>('main .table-box');
      const heading = document.querySelector<HTMLElement>('main h1');
      // Programs draws its table once the list has loaded: wait for it a little, then settle for the heading.
      if (page === 'programs' && !table && tries++ < 40) {
        timer = window.setTimeout(focus, 25);
        return;
      }
      const target = table ?? heading;
      if (!target) return;
      if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
      target.focus();
    };
    timer = window.setTimeout(focus, 0);
    return () => window.clearTimeout(timer);
  }, [page]);
}
