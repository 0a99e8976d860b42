import { useState } from 'react';

/**
 * Unsaved editor input kept while the user moves between pages (the stack page's text, a
 * program's configuration being edited), so that looking something up elsewhere does not throw
 * it away. In memory only: a draft may hold secrets (environment values), which must not reach
 * the browser's storage; a reload of the page starts afresh.
 */
const drafts = new Map<string, unknown>();

/** `useState` whose value outlives the component: the last value set under `key` comes back when it mounts again. */
export function useDraft<T>(key: string, initial: T): [T, (value: T) => void] {
  const [value, setValue] = useState<T>(() => (drafts.has(key) ? (drafts.get(key) as T) : initial));
  const set = (next: T) => {
    drafts.set(key, next);
    setValue(next);
  };
  return [value, set];
}
