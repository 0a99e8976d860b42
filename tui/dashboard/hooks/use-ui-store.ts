import { useCallback, useRef, useState } from 'react';
import type { UiState } from '../state/model.js';
import { reduce, type UiEvent } from '../state/reduce.js';

/**
 * The UI state in a ref, so that key presses arriving faster than renders (a paste, a test
 * writing several keys) each see the state left by the previous one.
 */
export function useUiStore(initial: UiState) {
  const ref = useRef(initial);
  const [, setVersion] = useState(0);
  const set = useCallback((next: UiState) => {
    if (next === ref.current) return;
    ref.current = next;
    setVersion((v) => v + 1);
  }, []);
  const dispatch = useCallback((e: UiEvent) => set(reduce(ref.current, e)), [set]);
  const get = useCallback(() => ref.current, []);
  return { state: ref.current, get, set, dispatch };
}
