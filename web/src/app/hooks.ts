import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { FeedState, ProgramFeed } from '../api/program-feed.js';
import { parseRoute, type Route } from '../logic/routes.js';

export function useFeed(feed: ProgramFeed): FeedState {
  const subscribe = useCallback((listener: () => void) => feed.subscribe(listener), [feed]);
  const current = useCallback(() => feed.current(), [feed]);
  return useSyncExternalStore(subscribe, current, current); // the third: rendered to markup in unit tests
}

export function useRoute(): Route {
  const [hash, setHash] = useState(() => location.hash);
  useEffect(() => {
    const on = () => setHash(location.hash);
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  return parseRoute(hash);
}

export interface Loaded<T> {
  data: T | null;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

/**
 * Loads `load()` when `key` changes and again every `everyMs` (0 = once), one request at a time;
 * a failure keeps the last data and reports the error. Data loaded for another key is never
 * returned (a page never shows the previous program's data).
 */
export function useLoad<T>(load: () => Promise<T>, key: string, everyMs = 0): Loaded<T> {
  const [result, setResult] = useState<{ key: string; data: T | null; error: unknown }>({ key, data: null, error: null });
  const [loading, setLoading] = useState(true);
  const [nonce, setNonce] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = async () => {
      setLoading(true);
      try {
        const value = await loadRef.current();
        if (live) setResult({ key, data: value, error: null });
      } catch (err) {
        if (live) setResult((old) => ({ key, data: old.key === key ? old.data : null, error: err }));
      } finally {
        if (live) setLoading(false);
      }
      if (live && everyMs > 0) timer = setTimeout(() => void run(), everyMs);
    };
    void run();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [key, everyMs, nonce]);
  const reload = useCallback(() => setNonce((n) => n + 1), []);
  const mine = result.key === key;
  return { data: mine ? result.data : null, error: mine ? result.error : null, loading: loading || !mine, reload };
}
