import { handleKey, type Effect, type KeyInfo, type Layout } from './keys.js';
import type { UiState } from './model.js';

const SPECIAL: (keyof KeyInfo)[] = ['upArrow', 'downArrow', 'leftArrow', 'rightArrow', 'pageUp', 'pageDown', 'home', 'end', 'return', 'escape', 'ctrl', 'backspace', 'delete', 'tab'];

/** One character of a burst as the key Ink would report if it had come alone. */
function keyOf(ch: string): [string, KeyInfo] {
  if (ch === '\r' || ch === '\n') return ['', { return: true }];
  if (ch === '\t') return ['', { tab: true }];
  if (ch === '\x7f' || ch === '\b') return ['', { backspace: true }];
  const code = ch.charCodeAt(0);
  if (code < 0x20) return [String.fromCharCode(code + 96), { ctrl: true }];
  return [ch, {}];
}

/**
 * Ink hands a run of plain characters that arrived together (keys typed faster than a read, a
 * paste) to the input handler as one string: `/ti` is one call. Each character is a key press
 * of its own here, so none is lost. Escape sequences (arrows, PgUp) already come one by one.
 */
export function splitKeys(input: string, key: KeyInfo & { meta?: boolean }): [string, KeyInfo][] {
  const chars = [...input];
  if (chars.length <= 1 || key.meta || SPECIAL.some((k) => key[k])) return [[input, key]];
  return chars.map(keyOf);
}

/** Every key of one input event, in order: the final state and the effects to run. */
export function handleInput(s: UiState, input: string, key: KeyInfo & { meta?: boolean }, layout: Layout): { state: UiState; effects: Effect[] } {
  const effects: Effect[] = [];
  let state = s;
  for (const [i, k] of splitKeys(input, key)) {
    const result = handleKey(state, i, k, layout);
    state = result.state;
    if (result.effect) effects.push(result.effect);
    if (result.effect?.kind === 'quit') break;
  }
  return { state, effects };
}
